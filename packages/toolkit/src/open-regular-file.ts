import { constants, type Stats } from 'node:fs'
import { type FileHandle, open, readlink, realpath, stat, unlink } from 'node:fs/promises'
import type { ToolError } from 'qilin-tools/internal/errors/tool-error.js'
import { failure, isMissing, type Workspace } from './workspace.js'

/** `read`: read only. `update`: read, then rewrite in place. `replace`: write, creating the file when absent. */
export type FileAccess = 'read' | 'update' | 'replace'

export interface OpenedFile {
  readonly handle: FileHandle
  /** Bytes, from `fstat` on the opened descriptor. */
  readonly size: number
  /** True when `replace` created the file. */
  readonly created: boolean
}

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_RDWR, O_WRONLY } = constants
const accessFlags = { read: O_RDONLY, update: O_RDWR, replace: O_WRONLY } satisfies Record<FileAccess, number>

/**
 * Opens a resolved workspace path that must be a regular file, so a named pipe, socket or device never blocks a
 * threadpool thread: `stat` refuses them before opening, and `O_NONBLOCK` plus `fstat` on the descriptor refuses one
 * swapped in after. `O_NOFOLLOW` and a check of the descriptor's real path refuse a path that a symlink swap moved
 * outside the workspace between `workspace.resolve` and the open. The caller closes the handle.
 */
export async function openRegularFile(
  workspace: Workspace,
  absolute: string,
  shown: string,
  access: FileAccess,
): Promise<OpenedFile> {
  const before = await statIfPresent(absolute)
  if (before !== undefined && !before.isFile()) throw notRegular(shown, before)
  if (before === undefined && access !== 'replace') throw missing(shown)
  const created = before === undefined
  const flags = accessFlags[access] | O_NOFOLLOW | O_NONBLOCK | (created ? O_CREAT | O_EXCL : 0)
  let handle: FileHandle
  try {
    handle = await open(absolute, flags, 0o666)
  } catch (error) {
    throw openFailure(error, shown)
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) throw notRegular(shown, stats)
    const real = await descriptorPath(handle)
    const confined = real === undefined ? await namesOpenedFile(absolute, stats) : workspace.contains(real)
    if (!confined) {
      if (created && real !== undefined) await unlink(real).catch(() => undefined)
      throw failure(
        `path "${shown}" left the workspace while it was being opened (a directory on the way became a symlink); the file was not touched`,
      )
    }
    return { handle, size: stats.size, created }
  } catch (error) {
    await handle.close()
    throw error
  }
}

const specialKinds: readonly (readonly ['isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice', string])[] = [
  ['isFIFO', 'a named pipe (FIFO)'],
  ['isSocket', 'a socket'],
  ['isCharacterDevice', 'a character device'],
  ['isBlockDevice', 'a block device'],
]

/** What a non-regular entry is, for a refusal the model can act on. */
function notRegular(shown: string, stats: Stats): ToolError {
  if (stats.isDirectory()) {
    return failure(`"${shown}" is a directory; give a file path, or use list_directory to see its entries`)
  }
  const kind = specialKinds.find(([is]) => stats[is]())?.[1] ?? 'a special file'
  return failure(
    `"${shown}" is ${kind}, not a regular file; the file tools only open regular files (file_info shows what a path is)`,
  )
}

async function statIfPresent(absolute: string): Promise<Stats | undefined> {
  try {
    return await stat(absolute)
  } catch (error) {
    if (isMissing(error)) return undefined
    throw error
  }
}

/** The kernel's name for the open descriptor, where `/proc` offers it. */
async function descriptorPath(handle: FileHandle): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`)
  } catch {
    return undefined
  }
}

/** Without `/proc`: the resolved path still has no symlink in it and still names the descriptor's file. */
export async function namesOpenedFile(absolute: string, opened: Stats): Promise<boolean> {
  try {
    if ((await realpath(absolute)) !== absolute) return false
    const now = await stat(absolute)
    return now.dev === opened.dev && now.ino === opened.ino
  } catch {
    return false
  }
}

const missing = (shown: string) =>
  failure(`no such file or directory: "${shown}"; list the parent directory to check the name`)

const openFailures: Record<string, (shown: string) => ToolError> = {
  ENOENT: missing,
  ENOTDIR: missing,
  ELOOP: (shown) => failure(`"${shown}" became a symlink while it was being opened; list its directory and try again`),
  EEXIST: (shown) => failure(`"${shown}" appeared while it was being created; try again`),
  EISDIR: (shown) => failure(`"${shown}" is a directory; give a file path, or use list_directory to see its entries`),
  ENXIO: (shown) =>
    failure(`"${shown}" is a socket or a pipe, not a regular file; the file tools only open regular files`),
  EACCES: (shown) => failure(`permission denied for "${shown}"`),
  EPERM: (shown) => failure(`permission denied for "${shown}"`),
  EROFS: (shown) => failure(`"${shown}" is on a read-only file system`),
}

function openFailure(error: unknown, shown: string): unknown {
  const code = (error as { code?: unknown } | null)?.code
  const describe = typeof code === 'string' ? openFailures[code] : undefined
  return describe === undefined ? error : describe(shown)
}
