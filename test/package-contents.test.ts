import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuiltCli, repositoryRoot } from './support/built-cli.js'

const notShipped = [/conformance/, /__fixtures__/, /__snapshots__/, /\.test(-d)?\./]

function packedFiles(): string[] {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: repositoryRoot,
    encoding: 'utf8',
  })
  const [pack] = JSON.parse(output) as [{ files: { path: string }[] }]
  return pack.files.map((file) => file.path)
}

describe('the packed package', () => {
  beforeAll(() => ensureBuiltCli(), 240_000)

  it('ships the library and runner files, no test suite or fixture', () => {
    const files = packedFiles()
    expect(files).toContain('dist/index.js')
    expect(files).toContain('dist/ptc/python/runner.py')
    expect(files.filter((path) => notShipped.some((pattern) => pattern.test(path)))).toEqual([])
  }, 60_000)

  it('loses what an older build left in dist/ once the build runs again', () => {
    const staleSuite = join(repositoryRoot, 'dist', 'providers', 'conformance', 'left-over.js')
    const staleFixture = join(repositoryRoot, 'dist', 'sandbox', '__fixtures__', 'probe.py')
    for (const path of [staleSuite, staleFixture]) {
      mkdirSync(join(path, '..'), { recursive: true })
      writeFileSync(path, '// from an older build\n')
    }
    execFileSync('node', ['scripts/copy-runtime-files.mjs'], { cwd: repositoryRoot })
    expect([staleSuite, staleFixture].filter((path) => existsSync(path))).toEqual([])
    expect(existsSync(join(repositoryRoot, 'dist', 'index.js'))).toBe(true)
    expect(existsSync(join(repositoryRoot, 'dist', 'ptc', 'python', 'runner.py'))).toBe(true)
  }, 60_000)
})
