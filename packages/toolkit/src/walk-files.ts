import type { Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'

/** Directories the search tools skip: version-control data and installed dependencies. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules'])

export interface WalkedFile {
  readonly absolute: string
  /** Relative to the walk's start, `/`-separated. */
  readonly relative: string
}

/**
 * Yields regular files under `start` in sorted order. Symlinks are not followed, so a walk never leaves
 * the directory it started in nor loops.
 */
export async function* walkFiles(start: string, signal: AbortSignal, prefix = ''): AsyncGenerator<WalkedFile> {
  let entries: Dirent[]
  try {
    entries = await readdir(start, { withFileTypes: true })
  } catch {
    return
  }
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
  for (const entry of entries) {
    signal.throwIfAborted()
    const absolute = join(start, entry.name)
    const relative = prefix + entry.name
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) yield* walkFiles(absolute, signal, `${relative}/`)
    } else if (entry.isFile()) yield { absolute, relative }
  }
}
