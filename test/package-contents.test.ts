import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { workspacePackages } from '../scripts/workspace-packages.js'
import { ensureBuiltCli, repositoryRoot } from './support/built-cli.js'

const notShipped = [
  /conformance/,
  /__fixtures__/,
  /__snapshots__/,
  /\.test(-d)?\./,
  /\.map$/,
  /(^|\/)src\//,
  /tsconfig/,
]

function packedFiles(directory: string): string[] {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: directory,
    encoding: 'utf8',
  })
  const [pack] = JSON.parse(output) as [{ files: { path: string }[] }]
  return pack.files.map((file) => file.path)
}

const packages = workspacePackages()
const packed = new Map<string, string[]>()

describe('the packed packages', () => {
  beforeAll(() => {
    ensureBuiltCli()
    for (const workspace of packages) packed.set(workspace.name, packedFiles(workspace.directory))
  }, 240_000)

  it.each(packages.map((workspace) => [workspace.name]))(
    '%s ships its LICENSE, README and library, no test suite, fixture, source or map',
    (name) => {
      const files = packed.get(name)!
      expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']))
      expect(files.some((path) => /^dist\/.+\.js$/.test(path))).toBe(true)
      expect(files.filter((path) => notShipped.some((pattern) => pattern.test(path)))).toEqual([])
    },
  )

  it('ships what each runtime reads beside its modules: the core its re2js copy, Python the runner', () => {
    expect(packed.get('qilin-tools')).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/vendor/re2js/index.js', 'dist/vendor/re2js/LICENSE']),
    )
    expect(packed.get('@qilin-tools/code-mode-python')).toContain('dist/runner.py')
    expect(packed.get('@qilin-tools/cli')).toEqual(expect.arrayContaining(['bin/qilin-tools.js', 'dist/main.js']))
  })

  it("ships what Node code mode's install builds (the mmap-threshold addon), and no build of it", () => {
    const files = packed.get('@qilin-tools/code-mode-node')!
    expect(files).toEqual(expect.arrayContaining(['binding.gyp', 'native/malloc-threshold.c']))
    expect(files.filter((path) => path.startsWith('build/'))).toEqual([])
  })

  it('loses what an older build left in dist/ once the build runs again', () => {
    const staleSuite = join(repositoryRoot, 'packages', 'core', 'dist', 'providers', 'conformance', 'left-over.js')
    const staleFixture = join(repositoryRoot, 'packages', 'sandbox', 'dist', '__fixtures__', 'probe.py')
    for (const path of [staleSuite, staleFixture]) {
      mkdirSync(join(path, '..'), { recursive: true })
      writeFileSync(path, '// from an older build\n')
    }
    execFileSync('node', ['scripts/build-packages.mjs', '--no-compile', 'core', 'sandbox', 'code-mode-python'], {
      cwd: repositoryRoot,
    })
    expect([staleSuite, staleFixture].filter((path) => existsSync(path))).toEqual([])
    expect(existsSync(join(repositoryRoot, 'packages', 'core', 'dist', 'index.js'))).toBe(true)
    expect(existsSync(join(repositoryRoot, 'packages', 'core', 'dist', 'vendor', 're2js', 'index.js'))).toBe(true)
    expect(existsSync(join(repositoryRoot, 'packages', 'code-mode-python', 'dist', 'runner.py'))).toBe(true)
  }, 60_000)
})
