import { execFileSync } from 'node:child_process'
import { closeSync, constants, existsSync, ftruncateSync, openSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { InvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runTool, toolRefusal } from './__fixtures__/run-tool.js'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'
import { readFileTool } from './read-file-tool.js'
import { openWorkspace } from './workspace.js'

let workspace: TempWorkspace
beforeEach(() => {
  workspace = createTempWorkspace(
    { 'notes.txt': 'one\ntwo\nthree\nfour\n', 'empty.txt': '', 'bin.dat': 'a\u0000b', 'dir/x.txt': 'x' },
    { 'leak.txt': '$OUTSIDE/secret.txt' },
  )
})
afterEach(() => {
  // Should a regression open the pipe blocking, a writer arriving releases the threadpool thread it holds.
  const pipe = join(workspace.root, 'pipe')
  if (existsSync(pipe)) {
    try {
      closeSync(openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK))
    } catch {}
  }
  workspace.dispose()
})

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

describe('read_file on hostile files', () => {
  it('refuses a named pipe from four calls at once, and the host keeps reading its own files', async () => {
    execFileSync('mkfifo', [join(workspace.root, 'pipe')])
    const started = performance.now()
    const reads = [1, 2, 3, 4].map(() => workspace.refusal('read_file', { path: 'pipe' }))
    expect(await readFile(join(workspace.root, 'notes.txt'), 'utf8')).toBe('one\ntwo\nthree\nfour\n')
    const hostReadMs = performance.now() - started
    for (const message of await Promise.all(reads))
      expect(message).toMatch(/^"pipe" is a named pipe \(FIFO\), not a regular file/)
    expect(hostReadMs).toBeLessThan(1_000)
    expect(performance.now() - started).toBeLessThan(1_000)
  })

  it('refuses a sparse 1.5 GB file from its size, reading none of it', async () => {
    const descriptor = openSync(join(workspace.root, 'big.log'), 'w')
    ftruncateSync(descriptor, 1536 * 1024 * 1024)
    closeSync(descriptor)
    const rssBefore = process.memoryUsage.rss()
    const started = performance.now()
    expect(await Promise.all([1, 2].map(() => workspace.refusal('read_file', { path: 'big.log' })))).toEqual([
      '"big.log" is 1610612736 bytes, over the 10485760 byte limit; read_file cannot open files this large (grep finds lines in files up to its own limit)',
      '"big.log" is 1610612736 bytes, over the 10485760 byte limit; read_file cannot open files this large (grep finds lines in files up to its own limit)',
    ])
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(process.memoryUsage.rss() - rssBefore).toBeLessThan(50 * 1024 * 1024)
  })

  it('takes its byte limit per tool: a file of exactly the limit is read, one byte more is refused', async () => {
    const tool = readFileTool(openWorkspace(workspace.root), { maxBytes: 16 })
    writeFileSync(join(workspace.root, 'sixteen.txt'), '0123456789abcde\n')
    writeFileSync(join(workspace.root, 'seventeen.txt'), '0123456789abcdef\n')
    expect(await runTool(tool, { path: 'sixteen.txt' })).toMatchObject({ content: '0123456789abcde', totalLines: 1 })
    expect(await toolRefusal(tool, { path: 'seventeen.txt' })).toMatch(
      /^"seventeen.txt" is 17 bytes, over the 16 byte limit; read_file cannot open/,
    )
    expect(() => readFileTool(openWorkspace(workspace.root), { maxBytes: 0 })).toThrow(
      new InvalidArgumentError('read_file maxBytes must be a whole number of bytes from 1 to 1073741824, not 0'),
    )
  })

  it('returns at most 100 000 lines a call whatever limit asks, and says where to continue', async () => {
    writeFileSync(join(workspace.root, 'many.txt'), 'x\n'.repeat(100_001))
    expect(await workspace.run('read_file', { path: 'many.txt', limit: 1_000_000 })).toMatchObject({
      startLine: 1,
      endLine: 100_000,
      totalLines: 100_001,
      truncated: true,
    })
  })

  it('keeps CRLF and lone carriage returns as before: \\r\\n is one break, a final \\r stays', async () => {
    writeFileSync(join(workspace.root, 'crlf.txt'), 'a\r\nb\r\r\nc\r')
    expect(await workspace.run('read_file', { path: 'crlf.txt' })).toMatchObject({
      content: 'a\nb\r\nc\r',
      totalLines: 3,
    })
  })
})
