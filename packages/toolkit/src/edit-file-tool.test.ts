import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runTool, toolRefusal } from './__fixtures__/run-tool.js'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'
import { editFileTool } from './edit-file-tool.js'
import { openWorkspace } from './workspace.js'

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

describe('edit_file within its limits', () => {
  it('refuses an edit whose result would pass the limit, from the match count, and leaves the file as it was', async () => {
    const tool = editFileTool(openWorkspace(workspace.root), { maxBytes: 64 })
    writeFileSync(join(workspace.root, 'grow.txt'), 'x'.repeat(16))
    expect(await runTool(tool, { path: 'grow.txt', oldText: 'x', newText: 'xxxx', replaceAll: true })).toEqual({
      path: 'grow.txt',
      replacements: 16,
    })
    expect(await toolRefusal(tool, { path: 'grow.txt', oldText: 'x', newText: 'xx', replaceAll: true })).toBe(
      'edit_file would make "grow.txt" 128 bytes, over the 64 byte limit (64 replacements); the file was not changed. Replace fewer occurrences, or shorten newText',
    )
    expect(readFileSync(join(workspace.root, 'grow.txt'), 'utf8')).toBe('x'.repeat(64))
    expect(await toolRefusal(tool, { path: 'grow.txt', oldText: 'x', newText: 'y'.repeat(65) })).toBe(
      "newText is 65 bytes, over edit_file's 64 byte limit; the file was not changed",
    )
    writeFileSync(join(workspace.root, 'big.txt'), 'y'.repeat(65))
    expect(await toolRefusal(tool, { path: 'big.txt', oldText: 'y', newText: '' })).toBe(
      '"big.txt" is 65 bytes, over the 64 byte limit; edit_file cannot open files this large',
    )
  })

  it('inserts newText literally and keeps every other byte of the file, invalid UTF-8 included', async () => {
    const original = Buffer.concat([Buffer.from('head '), Buffer.from([0xff, 0xfe]), Buffer.from(' = 1; tail é\n')])
    writeFileSync(join(workspace.root, 'raw.txt'), original)
    await workspace.run('edit_file', { path: 'raw.txt', oldText: '= 1', newText: "= '$&$1$$'" })
    expect(readFileSync(join(workspace.root, 'raw.txt'))).toEqual(
      Buffer.concat([Buffer.from('head '), Buffer.from([0xff, 0xfe]), Buffer.from(" = '$&$1$$'; tail é\n")]),
    )
  })

  it('counts matches without overlap, as before, and shortens files too', async () => {
    writeFileSync(join(workspace.root, 'a.txt'), 'aaaaa')
    expect(await workspace.run('edit_file', { path: 'a.txt', oldText: 'aa', newText: 'b', replaceAll: true })).toEqual({
      path: 'a.txt',
      replacements: 2,
    })
    expect(readFileSync(join(workspace.root, 'a.txt'), 'utf8')).toBe('bba')
  })

  it('refuses a named pipe and an unpaired surrogate at once', async () => {
    execFileSync('mkfifo', [join(workspace.root, 'pipe')])
    expect(await workspace.refusal('edit_file', { path: 'pipe', oldText: 'a', newText: 'b' })).toMatch(
      /^"pipe" is a named pipe \(FIFO\), not a regular file/,
    )
    expect(await workspace.refusal('edit_file', { path: 'code.ts', oldText: 'let \ud800', newText: '' })).toBe(
      'oldText contains an unpaired UTF-16 surrogate, which no file can contain; copy the text again',
    )
  })
})
