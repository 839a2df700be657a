import { existsSync, lstatSync, readlinkSync } from 'node:fs'
import type { Bubblewrap } from './find-bubblewrap.js'

/**
 * What a sandboxed process sees. Everything not named here is absent: `$HOME`, `/home`, `/root`, other users'
 * files, `/proc` of host processes (it gets its own pid namespace and `/proc`), the host's environment.
 */
export interface SandboxProfile {
  /** Mounted read-write at the same path, and the working directory; without it the working directory is `/tmp`. */
  readonly workspace?: string
  /** Extra host paths mounted read-write at the same path (skipped when they do not exist). */
  readonly writablePaths?: readonly string[]
  /** Extra host paths mounted read-only at the same path (skipped when they do not exist). */
  readonly readOnlyPaths?: readonly string[]
  /** Default false: a network namespace of its own, with nothing in it but loopback. */
  readonly network?: boolean
  /** The whole environment inside: the host's is cleared. */
  readonly env?: Readonly<Record<string, string>>
  /** Size cap of the private `/tmp`, where bubblewrap supports it. */
  readonly tmpBytes?: number
  /**
   * Size cap of `/dev/shm` (POSIX shared memory, semaphores), a tmpfs of its own where bubblewrap can size one;
   * elsewhere it stays a directory of the read-only `/dev`, where nothing can be written.
   * @default defaultShmBytes (16 MiB)
   */
  readonly shmBytes?: number
  /**
   * Host directories bound at `/tmp` and `/dev/shm` in place of the tmpfs bubblewrap would make: tmpfs mounts of
   * their own, capped in inodes too (`capped-tmpfs.ts`). `tmpBytes` and `shmBytes` then do not apply.
   */
  readonly tmpSource?: string
  readonly shmSource?: string
  /** The uid and gid inside, when bubblewrap itself runs as root of a user namespace made around it. */
  readonly identity?: { readonly uid: number; readonly gid: number }
  /** An open descriptor (in the bubblewrap process) holding a classic-BPF program for `--seccomp`. */
  readonly seccompFd?: number
  /** bubblewrap writes `{"child-pid": N}` here: the host pid of the sandbox's init, whose exit ends every process in it. */
  readonly infoFd?: number
}

/** What `/dev/shm` may hold when the profile names no size: room for semaphores and modest shared buffers. */
export const defaultShmBytes = 16 * 1024 * 1024

/** The system the sandbox may read: the programs and libraries, never `/etc` as a whole (it holds secrets). */
const systemPaths = ['/usr', '/lib', '/lib32', '/lib64', '/libx32', '/bin', '/sbin'] as const

/**
 * The `/etc` entries a shell and common tools need to run (the loader cache, users and groups by name, Debian's
 * alternatives, time zone, TLS roots, name resolution), bound read-only where they exist. `shadow` and the like stay out.
 */
export const shellEtcPaths = [
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/localtime',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/resolv.conf',
  '/etc/hosts',
  '/etc/host.conf',
  '/etc/gai.conf',
  '/etc/services',
  '/etc/protocols',
  '/etc/mime.types',
  '/etc/inputrc',
] as const

/**
 * bubblewrap's part of the command line for `profile`: every namespace unshared (the network too unless
 * `network`), capabilities dropped, the system read-only, a fresh read-only `/dev` with a sized `/dev/shm`, its own
 * `/proc` and tmpfs `/tmp`, the cleared environment plus `profile.env`, killed with its parent, in a session of its
 * own. Ends with `--`.
 */
export function bubblewrapArguments(bubblewrap: Bubblewrap, profile: SandboxProfile): string[] {
  const args = ['--unshare-all']
  if (profile.network === true) args.push('--share-net')
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--clearenv')
  if (profile.identity !== undefined) {
    args.push('--uid', String(profile.identity.uid), '--gid', String(profile.identity.gid))
  }
  for (const path of systemPaths) bindSystemPath(args, path)
  for (const path of profile.readOnlyPaths ?? []) if (existsSync(path)) args.push('--ro-bind', path, path)
  // bubblewrap's /dev is an unsized tmpfs: read-only, it holds nothing but its devices, and /dev/shm gets a sized one.
  args.push('--dev', '/dev', '--remount-ro', '/dev')
  if (profile.shmSource !== undefined) args.push('--bind', profile.shmSource, '/dev/shm')
  else if (bubblewrap.sizedTmpfs) {
    args.push('--size', String(profile.shmBytes ?? defaultShmBytes), '--tmpfs', '/dev/shm')
  }
  args.push('--proc', '/proc')
  if (profile.tmpSource !== undefined) args.push('--bind', profile.tmpSource, '/tmp')
  else {
    if (bubblewrap.sizedTmpfs && profile.tmpBytes !== undefined) args.push('--size', String(profile.tmpBytes))
    args.push('--tmpfs', '/tmp')
  }
  if (profile.workspace !== undefined) args.push('--bind', profile.workspace, profile.workspace)
  for (const path of profile.writablePaths ?? []) if (existsSync(path)) args.push('--bind', path, path)
  args.push('--chdir', profile.workspace ?? '/tmp')
  for (const [name, value] of Object.entries(profile.env ?? {})) args.push('--setenv', name, value)
  if (profile.seccompFd !== undefined) args.push('--seccomp', String(profile.seccompFd))
  if (profile.infoFd !== undefined) args.push('--info-fd', String(profile.infoFd))
  args.push('--')
  return args
}

/** `/usr` as a bind; a merged-usr top-level link (`/bin -> usr/bin`) as the same link. */
function bindSystemPath(args: string[], path: string): void {
  if (!existsSync(path)) return
  if (lstatSync(path).isSymbolicLink()) args.push('--symlink', readlinkSync(path), path)
  else args.push('--ro-bind', path, path)
}
