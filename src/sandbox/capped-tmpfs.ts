import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findExecutable } from './find-bubblewrap.js'

/** One tmpfs capped in bytes and in inodes: an empty file or directory costs no bytes, only kernel memory. */
export interface TmpfsCap {
  readonly bytes: number
  /** Files and directories it may hold; each pins about a kilobyte of kernel memory (inode and dentry). */
  readonly inodes: number
}

/** The inode count a tmpfs of `bytes` gets: one per 8 KiB of its size, at least 1,024. */
export function inodesFor(bytes: number): number {
  return Math.max(1024, Math.floor(bytes / 8192))
}

/**
 * A private `/tmp` and `/dev/shm` capped in inodes as well as bytes. bubblewrap can size a tmpfs (`--size`) but not
 * cap its inodes, so without a memory cgroup (any host not running as root) a `mkdir` flood pinned gigabytes of
 * kernel memory. These mounts are made by `unshare` in a user and mount namespace of the sandbox's own, which die
 * with it, around bubblewrap; the sandbox binds them.
 */
export interface CappedMounts {
  /** Host directories to bind at `/tmp` and at `/dev/shm`; inside the namespace each is a tmpfs of its own. */
  readonly tmpSource: string
  readonly shmSource: string
  /** `command` behind the mounts: the command line that makes them, then runs it. */
  wrap(command: readonly string[]): string[]
  /** Removes the mount points once the sandbox has exited (the mounts went with its namespace). */
  release(): void
}

/** Mounts both tmpfs from the arguments (size, inodes, directory, twice), then runs the rest. */
const mountBoth = [
  'mount -t tmpfs -o "size=$1,nr_inodes=$2,mode=1777" qilin "$3"',
  'mount -t tmpfs -o "size=$4,nr_inodes=$5,mode=1777" qilin "$6"',
  'shift 6',
  'exec "$@"',
].join(' && ')

let probed: { readonly unshare: string } | { readonly problem: string } | undefined

/** Capped mounts for one sandbox, or why this host cannot make them (no `unshare`, no user namespaces). */
export function openCappedMounts(tmp: TmpfsCap, shm: TmpfsCap): CappedMounts | { readonly problem: string } {
  probed ??= probeUnshare()
  if ('problem' in probed) return probed
  const unshare = probed.unshare
  sweepAbandoned()
  const base = mkdtempSync(join(tmpdir(), `${prefix}${process.pid}-`))
  const tmpSource = join(base, 'tmp')
  const shmSource = join(base, 'shm')
  mkdirSync(tmpSource)
  mkdirSync(shmSource)
  chmodSync(base, 0o700)
  const sizes = (cap: TmpfsCap) => [String(Math.floor(cap.bytes)), String(Math.floor(cap.inodes))]
  return {
    tmpSource,
    shmSource,
    wrap: (command) => [
      unshare,
      '--user',
      '--map-root-user',
      '--mount',
      '--',
      '/bin/sh',
      '-c',
      mountBoth,
      'sh',
      ...sizes(tmp),
      tmpSource,
      ...sizes(shm),
      shmSource,
      ...command,
    ],
    release: () => rmSync(base, { recursive: true, force: true }),
  }
}

const prefix = 'qilin-mounts-'

/** Removes the mount points a host that is gone left behind (its sandboxes, and their mounts, went with it). */
function sweepAbandoned(): void {
  let names: string[]
  try {
    names = readdirSync(tmpdir()).filter((name) => name.startsWith(prefix))
  } catch {
    return
  }
  for (const name of names) {
    const owner = Number(name.slice(prefix.length).split('-')[0])
    if (!Number.isSafeInteger(owner) || owner === process.pid || isAlive(owner)) continue
    rmSync(join(tmpdir(), name), { recursive: true, force: true })
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Whether `unshare` can make a user and mount namespace and mount an inode-capped tmpfs in it here (asked once). */
function probeUnshare(): { readonly unshare: string } | { readonly problem: string } {
  const unshare = findExecutable('unshare')
  if (unshare === undefined) return { problem: 'unshare (util-linux) is not installed' }
  const base = mkdtempSync(join(tmpdir(), `${prefix}${process.pid}-`))
  try {
    const script = 'mount -t tmpfs -o size=65536,nr_inodes=16 qilin "$0"'
    execFileSync(unshare, ['--user', '--map-root-user', '--mount', '--', '/bin/sh', '-c', script, base], {
      timeout: 10_000,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {},
    })
    return { unshare }
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim()
    return { problem: `unshare could not mount a capped tmpfs (${stderr || (error as Error).message})` }
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}
