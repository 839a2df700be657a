import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'

let workspace: TempWorkspace
beforeEach(() => {
  workspace = createTempWorkspace({ 'old.txt': 'old' }, { out: '$OUTSIDE', 'gone.txt': '$OUTSIDE/missing.txt' })
})
afterEach(() => workspace.dispose())

describe('write_file', () => {
  it('creates files with their parent directories and overwrites existing ones', async () => {
    expect(await workspace.run('write_file', { path: 'a/b/new.txt', content: 'héllo' })).toEqual({
      path: 'a/b/new.txt',
      bytesWritten: 6,
      created: true,
    })
    expect(readFileSync(join(workspace.root, 'a/b/new.txt'), 'utf8')).toBe('héllo')
    expect(await workspace.run('write_file', { path: 'old.txt', content: 'new' })).toMatchObject({ created: false })
    expect(readFileSync(join(workspace.root, 'old.txt'), 'utf8')).toBe('new')
  })

  it('never writes outside the workspace', async () => {
    for (const path of ['../escape.txt', 'out/escape.txt', 'out/deep/escape.txt', 'gone.txt', '/tmp/escape.txt']) {
      expect(await workspace.refusal('write_file', { path, content: 'x' })).toMatch(/outside the workspace|symlink/)
    }
    expect(existsSync(join(workspace.base, 'escape.txt'))).toBe(false)
    expect(existsSync(join(workspace.outside, 'escape.txt'))).toBe(false)
    expect(existsSync(join(workspace.outside, 'missing.txt'))).toBe(false)
  })
})
