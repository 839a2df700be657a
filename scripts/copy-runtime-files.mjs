// After `tsc -p tsconfig.build.json`: copies the non-TypeScript files a built runtime reads beside its modules
// (the Python runner, the inspector's page) into dist/, and removes from dist/ what no current build input produced (a renamed module,
// a suite or fixture left there by an older build), so the package ships exactly the library.
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import ts from 'typescript'

const root = new URL('..', import.meta.url).pathname
const source = join(root, 'src')
const target = join(root, 'dist')

/** Fixtures are test input, wherever they sit; nothing under them is built or copied. */
const isFixture = (path) => path.split(sep).includes('__fixtures__')

function buildInputs() {
  const configPath = join(root, 'tsconfig.build.json')
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile)
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'))
  return ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath).fileNames
}

/** The inspector's page is served as it is written: plain HTML, CSS and ES modules. */
const pageDirectory = join(source, 'cli', 'inspect', 'page')

function isRuntimeFile(path) {
  return path.endsWith('.py') || (path.startsWith(pageDirectory + sep) && /\.(html|css|js)$/.test(path))
}

function copyRuntimeFiles(directory, kept) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name)
    if (isFixture(path)) continue
    if (entry.isDirectory()) copyRuntimeFiles(path, kept)
    else if (isRuntimeFile(path)) {
      const destination = join(target, relative(source, path))
      mkdirSync(dirname(destination), { recursive: true })
      copyFileSync(path, destination)
      kept.add(destination)
    }
  }
}

function prune(directory, kept) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    // Dot entries are not build output (the test build lock is dist/.cli-build.lock) and npm does not pack them.
    if (entry.name.startsWith('.')) continue
    const path = join(directory, entry.name)
    if (entry.isDirectory()) {
      prune(path, kept)
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true })
    } else if (!kept.has(path)) rmSync(path)
  }
}

const kept = new Set()
for (const input of buildInputs()) {
  const stem = join(target, relative(source, input)).replace(/\.ts$/, '')
  for (const suffix of ['.js', '.js.map', '.d.ts', '.d.ts.map']) kept.add(stem + suffix)
}
copyRuntimeFiles(source, kept)
prune(target, kept)
