import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'

let workspace: TempWorkspace
beforeEach(() => {
  workspace = createTempWorkspace(
    { 'notes.txt': 'one\ntwo\nthree\nfour\n', 'empty.txt': '', 'bin.dat': 'a\u0000b', 'dir/x.txt': 'x' },
    { 'leak.txt': '$OUTSIDE/secret.txt' },
  )
})
afterEach(() => workspace.dispose())

describe('read_file', () => {
  it('reads a window of lines and reports what remains', async () => {
    expect(await workspace.run('read_file', { path: 'notes.txt', offset: 2, limit: 2 })).toEqual({
      path: 'notes.txt',
      content: 'two\nthree',
      startLine: 2,
      endLine: 3,
      totalLines: 4,
      truncated: true,
    })
  })

  it('shows the model numbered lines and where to continue', () => {
    const tool = workspace.toolkit.tools.find((candidate) => candidate.name === 'read_file')
    const value = { path: 'notes.txt', content: 'two\nthree', startLine: 2, endLine: 3, totalLines: 4, truncated: true }
    expect(tool?.output?.render?.({ path: 'notes.txt' }, value)).toMatchInlineSnapshot(`
      [
        {
          "text": "2	two
      3	three
      (1 more lines; continue with offset 4)",
          "type": "text",
        },
      ]
    `)
  })

  it('reads an empty file and an offset past the end without failing', async () => {
    expect(await workspace.run('read_file', { path: 'empty.txt' })).toMatchObject({ content: '', totalLines: 0 })
    expect(await workspace.run('read_file', { path: 'notes.txt', offset: 9 })).toMatchObject({
      content: '',
      truncated: false,
    })
  })

  it('refuses directories, binary files and paths outside the workspace', async () => {
    expect(await workspace.refusal('read_file', { path: 'dir' })).toContain('is a directory')
    expect(await workspace.refusal('read_file', { path: 'bin.dat' })).toContain('binary file')
    expect(await workspace.refusal('read_file', { path: 'leak.txt' })).toContain('outside the workspace')
    expect(await workspace.refusal('read_file', { path: '../outside/secret.txt' })).toContain('outside the workspace')
    expect(await workspace.refusal('read_file', { path: `${workspace.outside}/secret.txt` })).toContain(
      'outside the workspace',
    )
  })
})
