import { execFileSync } from 'node:child_process'
import { accessSync, constants, existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/** A bubblewrap executable and whether it can cap the size of its tmpfs (`--size`, bubblewrap 0.8+). */
export interface Bubblewrap {
  readonly executable: string
  readonly sizedTmpfs: boolean
}

/** What to tell a host operator when bubblewrap is missing. */
export const BUBBLEWRAP_REMEDY =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and allow unprivileged user namespaces'

/** Finds `command` (default `bwrap`) on PATH, or the path itself when it has a slash, and asks it what it supports. */
export function findBubblewrap(command = 'bwrap'): Bubblewrap | { readonly problem: string } {
  const executable = findExecutable(command)
  if (executable === undefined) return { problem: `${command} is not installed` }
  return { executable, sizedTmpfs: supportsSizedTmpfs(executable) }
}

export function findExecutable(command: string): string | undefined {
  const paths = command.includes('/')
    ? [command]
    : (process.env.PATH ?? '').split(delimiter).map((directory) => join(directory, command))
  return paths.find((path) => {
    try {
      accessSync(path, constants.X_OK)
      return existsSync(path)
    } catch {
      return false
    }
  })
}

function supportsSizedTmpfs(executable: string): boolean {
  try {
    return execFileSync(executable, ['--help'], { encoding: 'utf8', timeout: 10_000 }).includes('--size')
  } catch {
    return false
  }
}
