import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runTool, toolRefusal } from './__fixtures__/run-tool.js'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'
import { openWorkspace } from './workspace.js'
import { writeFileTool } from './write-file-tool.js'

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

describe('write_file within its limits', () => {
  it('refuses content over its byte limit before touching the file, counting UTF-8 bytes', async () => {
    const tool = writeFileTool(openWorkspace(workspace.root), { maxBytes: 8 })
    expect(await runTool(tool, { path: 'eight.txt', content: 'éééé' })).toMatchObject({ bytesWritten: 8 })
    expect(await toolRefusal(tool, { path: 'old.txt', content: 'ééééé' })).toBe(
      "content is 10 bytes, over write_file's 8 byte limit; nothing was written. Write less, or split it across several files",
    )
    expect(readFileSync(join(workspace.root, 'old.txt'), 'utf8')).toBe('old')
    expect(await toolRefusal(tool, { path: 'deep/new.txt', content: '123456789' })).toMatch(/^content is 9 bytes/)
    expect(existsSync(join(workspace.root, 'deep'))).toBe(false)
  })

  it('replaces a longer file completely', async () => {
    writeFileSync(join(workspace.root, 'long.txt'), 'a long original text\n')
    await workspace.run('write_file', { path: 'long.txt', content: 'short' })
    expect(readFileSync(join(workspace.root, 'long.txt'), 'utf8')).toBe('short')
  })

  it('refuses a named pipe and a directory at once instead of waiting for a reader', async () => {
    execFileSync('mkfifo', [join(workspace.root, 'pipe')])
    mkdirSync(join(workspace.root, 'dir'))
    const started = performance.now()
    expect(await workspace.refusal('write_file', { path: 'pipe', content: 'x' })).toMatch(
      /^"pipe" is a named pipe \(FIFO\), not a regular file/,
    )
    expect(await workspace.refusal('write_file', { path: 'dir', content: 'x' })).toBe(
      '"dir" is a directory; give a file path, or use list_directory to see its entries',
    )
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})
