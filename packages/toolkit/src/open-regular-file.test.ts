import { execFileSync } from 'node:child_process'
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { isToolError } from 'qilin-tools/internal/errors/tool-error.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTempWorkspace, type TempWorkspace } from './__fixtures__/temp-workspace.js'
import { type FileAccess, namesOpenedFile, openRegularFile } from './open-regular-file.js'
import { openWorkspace, type Workspace } from './workspace.js'

let temp: TempWorkspace
let workspace: Workspace
let server: Server | undefined
beforeEach(() => {
  temp = createTempWorkspace({ 'sub/file.txt': 'inside\n', 'plain.txt': 'plain\n' })
  writeFileSync(join(temp.outside, 'file.txt'), 'outside\n')
  workspace = openWorkspace(temp.root)
})
afterEach(async () => {
  // Should a regression open the pipe blocking, a writer arriving releases the threadpool thread it holds.
  const pipe = join(temp.root, 'pipe')
  if (existsSync(pipe)) {
    try {
      closeSync(openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK))
    } catch {}
  }
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())))
  server = undefined
  temp.dispose()
})

async function refusal(path: string, access: FileAccess, shown = path): Promise<string> {
  try {
    const file = await openRegularFile(workspace, path, shown, access)
    await file.handle.close()
  } catch (error) {
    if (isToolError(error)) return error.message
    throw error
  }
  throw new Error(`expected ${path} to be refused`)
}

describe('openRegularFile', () => {
  it('opens a regular file with its size, and creates one for replace', async () => {
    const file = await openRegularFile(workspace, join(workspace.root, 'plain.txt'), 'plain.txt', 'read')
    expect({ size: file.size, created: file.created }).toEqual({ size: 6, created: false })
    await file.handle.close()
    const created = await openRegularFile(workspace, join(workspace.root, 'new.txt'), 'new.txt', 'replace')
    expect(created.created).toBe(true)
    await created.handle.close()
    expect((await stat(join(workspace.root, 'new.txt'))).isFile()).toBe(true)
  })

  it('refuses a named pipe for every access at once, while the host reads another file', async () => {
    execFileSync('mkfifo', [join(workspace.root, 'pipe')])
    const started = performance.now()
    const attempts = (['read', 'read', 'read', 'read', 'update', 'replace'] as const).map((access) =>
      refusal(join(workspace.root, 'pipe'), access, 'pipe'),
    )
    const hostRead = readFile(join(workspace.root, 'plain.txt'), 'utf8')
    for (const message of await Promise.all(attempts)) {
      expect(message).toBe(
        '"pipe" is a named pipe (FIFO), not a regular file; the file tools only open regular files (file_info shows what a path is)',
      )
    }
    expect(await hostRead).toBe('plain\n')
    expect(performance.now() - started).toBeLessThan(1_000)
  })

  it('refuses a socket and a directory, naming what they are', async () => {
    const socket = join(workspace.root, 'socket')
    server = createServer()
    await new Promise<void>((resolve) => server?.listen(socket, resolve))
    expect(await refusal(socket, 'read', 'socket')).toMatch(/^"socket" is a socket, not a regular file/)
    expect(await refusal(socket, 'replace', 'socket')).toMatch(/^"socket" is a socket, not a regular file/)
    expect(await refusal(join(workspace.root, 'sub'), 'replace', 'sub')).toBe(
      '"sub" is a directory; give a file path, or use list_directory to see its entries',
    )
  })

  it('refuses a file swapped for a symlink after the path was resolved', async () => {
    const resolved = await workspace.resolve('plain.txt', 'read')
    renameSync(resolved, `${resolved}.old`)
    symlinkSync(join(temp.outside, 'secret.txt'), resolved)
    // A path-based open now reads outside: the attack is real.
    expect(await readFile(resolved, 'utf8')).toBe('secret\n')
    expect(await refusal(resolved, 'read', 'plain.txt')).toMatch(
      /^("plain.txt" became a symlink while it was being opened|path "plain.txt" left the workspace)/,
    )
  })

  it('refuses a path whose directory was swapped for a symlink to the outside after it was resolved', async () => {
    const resolved = await workspace.resolve('sub/file.txt', 'read')
    const fresh = await workspace.resolve('sub/new.txt', 'write')
    renameSync(join(workspace.root, 'sub'), join(workspace.root, 'sub-before'))
    symlinkSync(temp.outside, join(workspace.root, 'sub'))
    expect(await readFile(resolved, 'utf8')).toBe('outside\n')
    for (const access of ['read', 'update', 'replace'] as const) {
      expect(await refusal(resolved, access, 'sub/file.txt')).toBe(
        'path "sub/file.txt" left the workspace while it was being opened (a directory on the way became a symlink); the file was not touched',
      )
    }
    expect(await refusal(fresh, 'replace', 'sub/new.txt')).toMatch(/^path "sub\/new.txt" left the workspace/)
    expect(readFileSync(join(temp.outside, 'file.txt'), 'utf8')).toBe('outside\n')
    expect(existsSync(join(temp.outside, 'new.txt'))).toBe(false)
  })

  it('without /proc, still tells a swapped path from the opened file by its real path and inode', async () => {
    const resolved = await workspace.resolve('sub/file.txt', 'read')
    const opened = await stat(resolved)
    expect(await namesOpenedFile(resolved, opened)).toBe(true)
    renameSync(join(workspace.root, 'sub'), join(workspace.root, 'sub-before'))
    mkdirSync(join(workspace.root, 'sub'))
    writeFileSync(resolved, 'impostor\n')
    expect(await namesOpenedFile(resolved, opened)).toBe(false)
    symlinkSync(join(workspace.root, 'sub-before'), join(workspace.root, 'sub-link'))
    expect(await namesOpenedFile(join(workspace.root, 'sub-link', 'file.txt'), opened)).toBe(false)
  })

  it('names a file removed after it was resolved', async () => {
    const resolved = await workspace.resolve('plain.txt', 'read')
    renameSync(resolved, `${resolved}.gone`)
    expect(await refusal(resolved, 'read', 'plain.txt')).toBe(
      'no such file or directory: "plain.txt"; list the parent directory to check the name',
    )
  })
})
