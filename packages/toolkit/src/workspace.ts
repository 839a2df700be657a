import { realpathSync } from 'node:fs'
import { lstat, realpath } from 'node:fs/promises'
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'
import { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import { InvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { ToolError } from 'qilin-tools/internal/errors/tool-error.js'

/** A directory the toolkit's tools may touch, and nothing outside it. */
export interface Workspace {
  /** The real (symlink-free) absolute path of the root. */
  readonly root: string
  /**
   * Resolves a model-given path to a real absolute path inside the root, or throws a `ToolError`
   * the model can act on. `write` accepts a path that does not exist yet and checks its nearest existing ancestor.
   */
  resolve(path: string, purpose: 'read' | 'write'): Promise<string>
  /** The workspace-relative form of an absolute path, with `/` separators; `.` for the root. */
  display(absolute: string): string
  /** Whether a real absolute path is the root or below it (lexically: resolve symlinks first). */
  contains(absolute: string): boolean
}

export function openWorkspace(root: string): Workspace {
  let realRoot: string
  try {
    realRoot = realpathSync(resolve(root))
  } catch (error) {
    throw new InvalidArgumentError(`workspace root ${resolve(root)} does not exist`, { cause: error })
  }
  const inside = (absolute: string) => {
    const path = relative(realRoot, absolute)
    return path === '' || (!path.startsWith(`..${sep}`) && path !== '..' && !isAbsolute(path))
  }
  const display = (absolute: string) => relative(realRoot, absolute).split(sep).join('/') || '.'
  const outside = (path: string, detail = '') =>
    failure(
      `path "${path}" is outside the workspace${detail}; use a path relative to the workspace root (for example "src/index.ts")`,
    )

  return {
    root: realRoot,
    display,
    contains: inside,
    async resolve(path, purpose) {
      const lexical = resolve(realRoot, path)
      if (!inside(lexical)) throw outside(path)
      const existing = await nearestExisting(lexical)
      if (existing.real === undefined)
        throw failure(`path "${path}" goes through a symlink whose target does not exist`)
      if (!inside(existing.real)) throw outside(path, ' (it goes through a symlink that points outside)')
      if (existing.path === lexical) return existing.real
      if (purpose === 'read') {
        throw failure(`no such file or directory: "${path}"; list the parent directory to check the name`)
      }
      return resolve(existing.real, relative(existing.path, lexical))
    },
  }
}

export function failure(message: string): ToolError {
  return new ToolError({ code: ToolErrorCode.TOOL_ERROR, message })
}

/**
 * The path itself or its nearest ancestor that exists (a dangling symlink counts as existing),
 * with its real path; `real` is undefined when that entry is a dangling symlink.
 */
async function nearestExisting(path: string): Promise<{ path: string; real: string | undefined }> {
  let current = path
  for (;;) {
    if (await exists(current)) {
      try {
        return { path: current, real: await realpath(current) }
      } catch (error) {
        if (isMissing(error)) return { path: current, real: undefined }
        throw error
      }
    }
    const parent = dirname(current)
    if (parent === current) return { path: current, real: current }
    current = parent
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path)
    return true
  } catch (error) {
    if (isMissing(error)) return false
    throw error
  }
}

export function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
