import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'

let workspace: TempWorkspace
beforeEach(() => {
  workspace = createTempWorkspace({ 'b.txt': '12345', 'a/inner.txt': 'x' }, { link: 'b.txt', out: '$OUTSIDE' })
})
afterEach(() => workspace.dispose())

describe('list_directory', () => {
  it('lists entries sorted by name with types and sizes as numbers', async () => {
    expect(await workspace.run('list_directory', {})).toEqual({
      path: '.',
      entries: [
        { name: 'a', type: 'directory', size: 0 },
        { name: 'b.txt', type: 'file', size: 5 },
        { name: 'link', type: 'symlink', size: 5 },
        { name: 'out', type: 'symlink', size: expect.any(Number) },
      ],
      truncated: false,
    })
  })

  it('refuses files, outside directories and symlinks pointing out', async () => {
    expect(await workspace.refusal('list_directory', { path: 'b.txt' })).toContain('is not a directory')
    expect(await workspace.refusal('list_directory', { path: '..' })).toContain('outside the workspace')
    expect(await workspace.refusal('list_directory', { path: 'out' })).toContain('outside the workspace')
  })
})
