import { spawnSync } from 'node:child_process'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { SyscallName } from '../syscall-numbers.js'

/** An argument of a raw call: a number, or a pid the probe fills in. */
type Argument = number | 'own-pid' | 'parent-pid'

export type Probe =
  | { readonly name: string; readonly kind: 'raw'; readonly nr: number; readonly args: readonly Argument[] }
  | { readonly name: string; readonly kind: 'thread' | 'fork' | 'spawn' | 'exec' | 'socket' | 'i386-getpid' }
  | { readonly name: string; readonly kind: 'kill'; readonly pid: Argument }

const CLONE_SIGHAND = 0x800
const bad = 1

/**
 * One call per refused class, with arguments the kernel rejects on its own (bad pointers, invalid flags, fd -1),
 * so that without the filter nothing happens and the error is not EPERM. `clone` adds CLONE_SIGHAND without
 * CLONE_VM, which the kernel refuses with EINVAL before it creates anything.
 */
export const kernelSurfaceCalls = {
  ptrace: [-1, -1, 0, 0],
  process_vm_readv: [-1, 0, 0, 0, 0, 1],
  process_vm_writev: [-1, 0, 0, 0, 0, 1],
  pidfd_getfd: [-1, -1, 0],
  kcmp: [-1, -1, 0, 0, 0],
  mount: [bad, bad, bad, 0, 0],
  umount2: [bad, 0xffffffff],
  open_tree: [-1, bad, 0],
  open_tree_attr: [-1, bad, 0, 0, 0],
  move_mount: [-1, bad, -1, bad, 0],
  fsopen: [bad, 0],
  fsconfig: [-1, 0, 0, 0, 0],
  fsmount: [-1, 0, 0],
  fspick: [-1, bad, 0],
  mount_setattr: [-1, bad, 0, bad, 0],
  pivot_root: [bad, bad],
  chroot: [bad],
  unshare: [0],
  setns: [-1, 0],
  bpf: [-1, 0, 0],
  perf_event_open: [0, 0, -1, -1, 0],
  userfaultfd: [-1],
  io_uring_setup: [0, 0],
  io_uring_enter: [-1, 0, 0, 0, 0, 0],
  io_uring_register: [-1, 0, 0, 0],
  keyctl: [-1, 0, 0, 0, 0],
  add_key: [bad, bad, 0, 0, 0],
  request_key: [bad, bad, 0, 0],
  init_module: [0, 0, 0],
  finit_module: [-1, 0, 0],
  delete_module: [bad, 0],
  kexec_load: [0, 0, 0, 0xffffffff],
  kexec_file_load: [-1, -1, 0, 0, 0xffffffff],
  reboot: [0, 0, 0, 0],
  swapon: [bad, 0],
  swapoff: [bad],
  acct: [bad],
  settimeofday: [bad, bad],
  clock_settime: [-1, bad],
  clock_adjtime: [-1, bad],
  adjtimex: [bad],
  personality: [0xffffffff],
  quotactl: [0, bad, 0, 0],
  quotactl_fd: [-1, 0, 0, 0],
  name_to_handle_at: [-1, bad, bad, bad, 0],
  open_by_handle_at: [-1, bad, 0],
  iopl: [4],
  ioperm: [0x10000, 1, 0],
  syslog: [0xff, 0, 0],
  mknod: [bad, 0, 0],
  mknodat: [-1, bad, 0, 0],
} satisfies Partial<Record<SyscallName, readonly Argument[]>>

export const namespaceFlags = {
  NEWNS: 0x00020000,
  NEWCGROUP: 0x02000000,
  NEWUTS: 0x04000000,
  NEWIPC: 0x08000000,
  NEWUSER: 0x10000000,
  NEWPID: 0x20000000,
  NEWNET: 0x40000000,
} as const

/** Calls only the `program` profile refuses, with the same harmless arguments. */
export const programOnlyCalls = {
  execve: [bad, 0, 0],
  execveat: [-1, bad, 0, 0, 0],
  socket: [1, 2, 0],
  socketpair: [-1, 0, 0, 0],
  connect: [-1, 0, 0],
  bind: [-1, 0, 0],
  listen: [-1, 0],
  accept: [-1, 0, 0],
  accept4: [-1, 0, 0, 0],
  setrlimit: [-1, bad],
  memfd_create: [bad, 0],
  memfd_secret: [-1],
  pidfd_send_signal: [-1, 0, 0, 0],
} satisfies Partial<Record<SyscallName, readonly Argument[]>>

export { CLONE_SIGHAND }

const probeScript = fileURLToPath(new URL('./seccomp-probe.py', import.meta.url))

/** The folder holding the probe script, for a sandbox to bind (a checkout under /tmp is hidden by its tmpfs). */
export const probeDirectory = dirname(probeScript)

export interface ProbeRun {
  /** Probe name to what it got ('ok', 'ok <value>', an errno name, an exception class name). */
  readonly results: Record<string, string>
  readonly signal: NodeJS.Signals | null
}

/** The filter the probe loads itself (with prctl) before its probes, own-pid slots filled with its pid. */
export interface SelfLoaded {
  readonly program: Buffer
  readonly ownPidSlots?: readonly number[]
}

/** The command line that runs `probes` in a fresh python3. */
export function probeCommand(probes: readonly Probe[], filter?: SelfLoaded): string[] {
  const config = { filter: filter?.program.toString('base64') ?? null, ownPidSlots: filter?.ownPidSlots ?? [], probes }
  return ['python3', '-I', probeScript, JSON.stringify(config)]
}

/**
 * Runs the probes in a fresh python3, which first loads `filter` if given. `prefix` runs it under another
 * command (bubblewrap) and `extraFd` becomes that command's fd 3.
 */
export function runProbes(
  probes: readonly Probe[],
  filter?: SelfLoaded,
  under: { readonly prefix?: readonly string[]; readonly extraFd?: number } = {},
): ProbeRun {
  const [command = 'python3', ...args] = [...(under.prefix ?? []), ...probeCommand(probes, filter)]
  const child = spawnSync(command, args, {
    encoding: 'utf8',
    timeout: 20_000,
    stdio: ['ignore', 'pipe', 'pipe', ...(under.extraFd === undefined ? [] : [under.extraFd])],
  })
  if (child.signal !== null) return { results: {}, signal: child.signal }
  if (child.status !== 0) throw new Error(`the probe failed (${child.status}): ${child.stderr}`)
  return { results: JSON.parse(child.stdout) as Record<string, string>, signal: null }
}
