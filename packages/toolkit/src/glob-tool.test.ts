import { worstEventLoopLag } from 'qilin-tools/internal/json-schema/__fixtures__/event-loop-lag.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'

let workspace: TempWorkspace
beforeEach(() => {
  workspace = createTempWorkspace(
    {
      'README.md': '',
      'src/index.ts': '',
      'src/util/path.ts': '',
      'src/util/path.test.ts': '',
      'node_modules/dep/index.ts': '',
      '.git/config': '',
    },
    { 'out-link': '$OUTSIDE' },
  )
})
afterEach(() => workspace.dispose())

describe('glob', () => {
  it('matches at any depth, skips dependencies and never follows symlinks out', async () => {
    expect(await workspace.run('glob', { pattern: '*.ts' })).toEqual({
      files: ['src/index.ts', 'src/util/path.test.ts', 'src/util/path.ts'],
      truncated: false,
    })
    expect(await workspace.run('glob', { pattern: '**/*' })).toMatchObject({
      files: ['README.md', 'src/index.ts', 'src/util/path.test.ts', 'src/util/path.ts'],
    })
  })

  it('searches under a directory and caps the result', async () => {
    expect(await workspace.run('glob', { pattern: 'util/*.ts', path: 'src' })).toMatchObject({
      files: ['src/util/path.test.ts', 'src/util/path.ts'],
    })
    expect(await workspace.run('glob', { pattern: '*.ts', limit: 1 })).toEqual({
      files: ['src/index.ts'],
      truncated: true,
    })
  })

  it('refuses a start directory outside the workspace', async () => {
    expect(await workspace.refusal('glob', { pattern: '*', path: 'out-link' })).toContain('outside the workspace')
  })

  it('matches the issue 14 glob against long names in linear time with the event loop free', async () => {
    const names = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`${'a'.repeat(60)}${index}`, '']))
    const attacked = createTempWorkspace(names)
    try {
      let value: unknown
      const lag = await worstEventLoopLag(async () => {
        value = await attacked.run('glob', { pattern: '**a**a**a**a**a**a**a**a**b' })
      })
      expect(value).toEqual({ files: [], truncated: false })
      expect(lag).toBeLessThan(100)
    } finally {
      attacked.dispose()
    }
  })

  it('refuses a glob it cannot compile with its reason', async () => {
    expect(await workspace.refusal('glob', { pattern: '[z-a].ts' })).toMatch(/^invalid glob "\[z-a\]\.ts": /)
  })
})
