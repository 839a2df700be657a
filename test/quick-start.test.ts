import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repositoryRoot } from './support/built-cli.js'

/** The commands of the first code block under `## Quick start`, one per line. */
function quickStartCommands(readme: string): string[] {
  const section = readme.split(/^## Quick start\s*$/m)[1] ?? ''
  const block = /^```(?:sh|bash|shell)?\n([\s\S]*?)^```/m.exec(section)?.[1] ?? ''
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
}

// Minutes of npm install and a whole `npm test`: `.ci/run` sets QILIN_QUICKSTART=1, `npm test` alone skips it.
describe.skipIf(process.env.QILIN_QUICKSTART !== '1')('the README Quick start, verbatim, in a fresh clone', () => {
  it(
    'installs, runs the example program, and passes npm test',
    () => {
      const base = mkdtempSync(join(tmpdir(), 'qilin-quickstart-'))
      try {
        const clone = join(base, 'main')
        const shared = resolve(repositoryRoot, '..', 'shared')
        if (existsSync(shared)) symlinkSync(shared, join(base, 'shared'))
        const cloned = spawnSync('git', ['clone', '--quiet', repositoryRoot, clone], { encoding: 'utf8' })
        expect(cloned.status, cloned.stderr).toBe(0)
        const commands = quickStartCommands(readFileSync(join(clone, 'README.md'), 'utf8'))
        expect(commands.some((command) => command.includes('qilin-tools run examples/largest-files.ts'))).toBe(true)
        const env = { ...process.env, QILIN_QUICKSTART: '', CI: 'true' }
        for (const command of commands) {
          const run = spawnSync('bash', ['-c', command], {
            cwd: clone,
            env,
            encoding: 'utf8',
            maxBuffer: 64 * 1024 * 1024,
          })
          expect(run.status, `${command}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`).toBe(0)
          if (command.includes('examples/largest-files.ts')) expect(run.stdout).toContain('data/notes.json')
        }
      } finally {
        rmSync(base, { recursive: true, force: true })
      }
    },
    45 * 60_000,
  )
})

describe('quickStartCommands', () => {
  it('reads the commands of the Quick start block', () => {
    const readme =
      '# x\n\n## Quick start\n\n```sh\nnpm install && npx qilin-tools run a.ts\n# comment\nnpm test\n```\n\n## Next\n'
    expect(quickStartCommands(readme)).toEqual(['npm install && npx qilin-tools run a.ts', 'npm test'])
  })
})
