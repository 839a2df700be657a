// A consumer project that installs a packed workspace package the way a user would, with no compiler on PATH:
// `npm install <tarball>` into a fresh folder, then figures of what the install brought. Used by
// test/consumer-install.test.ts (in `npm test`) and scripts/package-sizes.ts.
import { execFileSync, spawnSync } from 'node:child_process'
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** What must not be reachable while the tarball installs: a native build would need one of them. */
export const COMPILERS = ['g++', 'gcc', 'cc', 'c++', 'clang', 'make', 'python3', 'python']

/** A PATH of one folder holding only `node` and `npm` (symlinks to the running ones), so no compiler is found. */
export function nodeOnlyPath(base: string): string {
  const bin = join(base, 'bin')
  mkdirSync(bin, { recursive: true })
  symlinkSync(process.execPath, join(bin, 'node'))
  const npm = (process.env.PATH ?? '')
    .split(':')
    .map((folder) => join(folder, 'npm'))
    .find((candidate) => candidate !== join(bin, 'npm') && existsSync(candidate))
  if (npm === undefined) throw new Error('npm is not on PATH')
  symlinkSync(realpathSync(npm), join(bin, 'npm'))
  return bin
}

/** The names in COMPILERS that a PATH reaches. */
export function compilersOn(path: string): string[] {
  return COMPILERS.filter((name) => path.split(':').some((folder) => folder !== '' && existsSync(join(folder, name))))
}

/** `npm pack` of one workspace package into `destination`; returns the tarball's path. */
export function packWorkspace(packageDirectory: string, destination: string): string {
  const output = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], {
    cwd: packageDirectory,
    encoding: 'utf8',
  })
  const [pack] = JSON.parse(output) as [{ filename: string }]
  return join(destination, pack.filename)
}

export interface ConsumerInstall {
  /** The consumer project's folder. */
  readonly directory: string
  /** `PATH` as the install saw it. */
  readonly path: string
  readonly status: number | null
  readonly output: string
}

/** A fresh consumer project (`"type": "module"`) with `tarball` installed by npm under a node-only PATH. */
export function installInConsumer(tarball: string): ConsumerInstall {
  const base = mkdtempSync(join(tmpdir(), 'qilin-consumer-'))
  const directory = join(base, 'project')
  mkdirSync(directory)
  writeFileSync(
    join(directory, 'package.json'),
    `${JSON.stringify({ name: 'consumer', private: true, type: 'module' })}\n`,
  )
  const path = nodeOnlyPath(base)
  const install = spawnSync(
    join(path, 'npm'),
    ['install', tarball, '--no-audit', '--no-fund', '--cache', join(base, 'npm-cache'), '--prefer-offline'],
    { cwd: directory, encoding: 'utf8', env: { PATH: path, HOME: base } },
  )
  return { directory, path, status: install.status, output: `${install.stdout}${install.stderr}` }
}

export interface InstalledFigures {
  /** Packages under node_modules besides the installed one. */
  readonly dependencies: readonly string[]
  /** Of those, the ones with an install, preinstall or postinstall script or a binding.gyp (a native build). */
  readonly withInstallScripts: readonly string[]
  /** Bytes of every file under node_modules. */
  readonly installedBytes: number
}

/** What `npm install` put in the consumer's node_modules for the package `name`. */
export function installedFigures(directory: string, name: string): InstalledFigures {
  const modules = join(directory, 'node_modules')
  const packages: string[] = []
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder)) {
      if (entry.startsWith('.')) continue
      const path = join(folder, entry)
      if (entry.startsWith('@')) visit(path)
      else if (existsSync(join(path, 'package.json'))) {
        packages.push(path)
        if (existsSync(join(path, 'node_modules'))) visit(join(path, 'node_modules'))
      }
    }
  }
  visit(modules)
  const nameOf = (path: string) =>
    (JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as { name: string }).name
  const dependencies = packages.map(nameOf).filter((dependency) => dependency !== name)
  const withInstallScripts = packages
    .filter((path) => {
      const scripts =
        (JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as { scripts?: Record<string, string> })
          .scripts ?? {}
      return (
        ['preinstall', 'install', 'postinstall'].some((hook) => hook in scripts) ||
        existsSync(join(path, 'binding.gyp'))
      )
    })
    .map(nameOf)
  return { dependencies, withInstallScripts, installedBytes: folderBytes(modules) }
}

function folderBytes(folder: string): number {
  let total = 0
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry)
    const stat = lstatSync(path)
    if (stat.isDirectory()) total += folderBytes(path)
    else if (stat.isFile()) total += stat.size
  }
  return total
}

/** Runs an ES module script inside the consumer project with the install's node-only PATH. */
export function runInConsumer(install: ConsumerInstall, script: string) {
  const file = join(install.directory, 'consumer.mjs')
  writeFileSync(file, script)
  return spawnSync(join(install.path, 'node'), [file], {
    cwd: dirname(file),
    encoding: 'utf8',
    env: { PATH: install.path },
  })
}
