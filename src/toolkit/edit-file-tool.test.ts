import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'

let workspace: TempWorkspace
beforeEach(() => {
  workspace = createTempWorkspace({ 'code.ts': 'let a = 1\nlet b = 1\nlet a2 = 2\n' })
})
afterEach(() => workspace.dispose())

const content = () => readFileSync(join(workspace.root, 'code.ts'), 'utf8')

describe('edit_file', () => {
  it('replaces a unique exact text', async () => {
    expect(await workspace.run('edit_file', { path: 'code.ts', oldText: 'let b = 1', newText: 'let b = 3' })).toEqual({
      path: 'code.ts',
      replacements: 1,
    })
    expect(content()).toBe('let a = 1\nlet b = 3\nlet a2 = 2\n')
  })

  it('refuses missing and ambiguous text, leaving the file as it was', async () => {
    expect(await workspace.refusal('edit_file', { path: 'code.ts', oldText: 'let c', newText: '' })).toBe(
      'oldText was not found in "code.ts"; read the file again and copy the text exactly, including whitespace and indentation',
    )
    expect(await workspace.refusal('edit_file', { path: 'code.ts', oldText: '= 1', newText: '= 5' })).toBe(
      'oldText occurs 2 times in "code.ts"; include more surrounding lines to make it unique, or set replaceAll to true',
    )
    expect(content()).toBe('let a = 1\nlet b = 1\nlet a2 = 2\n')
  })

  it('replaces every occurrence when asked', async () => {
    expect(
      await workspace.run('edit_file', { path: 'code.ts', oldText: '= 1', newText: '= 5', replaceAll: true }),
    ).toEqual({ path: 'code.ts', replacements: 2 })
    expect(content()).toBe('let a = 5\nlet b = 5\nlet a2 = 2\n')
  })
})
