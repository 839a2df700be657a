import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

describe('examples/library-in-20-lines.ts', () => {
  it('prints what its comments say', () => {
    const example = fileURLToPath(new URL('library-in-20-lines.ts', import.meta.url))
    const run = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', example], { encoding: 'utf8' })
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe("[ { type: 'text', text: '{\"celsius\":12}' } ]\n[ { type: 'text', text: 'Reykjavik' } ]\n")
    expect(run.status).toBe(0)
  })
})
