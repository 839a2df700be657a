import type { Stats } from 'node:fs'

/** The kind of a workspace entry, as `lstat` reports it. */
export type EntryType = 'file' | 'directory' | 'symlink' | 'other'

export const ENTRY_TYPES: readonly EntryType[] = ['file', 'directory', 'symlink', 'other']

/** The kind of a directory entry, from `lstat` (a symlink reports as itself). */
export function entryType(stats: Pick<Stats, 'isFile' | 'isDirectory' | 'isSymbolicLink'>): EntryType {
  if (stats.isSymbolicLink()) return 'symlink'
  if (stats.isFile()) return 'file'
  if (stats.isDirectory()) return 'directory'
  return 'other'
}
