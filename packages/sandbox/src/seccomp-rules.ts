import type { SyscallName } from './syscall-numbers.js'

const EPERM = 1
const ENOSYS = 38

/** A test on one argument of the call; a rule refuses the call when any of its tests holds. */
export type ArgumentTest =
  /** Some bit of `mask` is set in the argument's low 32 bits. */
  | { readonly test: 'any-bit'; readonly argument: number; readonly mask: number }
  /** No bit of `mask` is set in the argument's low 32 bits. */
  | { readonly test: 'no-bit'; readonly argument: number; readonly mask: number }
  /** The argument's low 32 bits (a `pid_t`, which the kernel truncates to) are not the filtered process's pid. */
  | { readonly test: 'not-own-pid'; readonly argument: number }
  /** The whole 64-bit argument (a pointer) is not NULL. */
  | { readonly test: 'not-null'; readonly argument: number }
  /** The argument's low 32 bits (an `int`, such as a socket's address family) are none of `values`. */
  | { readonly test: 'none-of'; readonly argument: number; readonly values: readonly number[] }

/** What the filter does with one call: refuse it with `errno`, always or only when one of `when` holds. */
export interface SyscallRule {
  readonly syscall: SyscallName
  readonly errno: number
  readonly when?: readonly ArgumentTest[]
}

/** `clone` flags (`linux/sched.h`). The kernel reads only the low 32 bits of `clone`'s flags. */
export const CloneFlag = {
  THREAD: 0x00010000,
  NEWNS: 0x00020000,
  NEWCGROUP: 0x02000000,
  NEWUTS: 0x04000000,
  NEWIPC: 0x08000000,
  NEWUSER: 0x10000000,
  NEWPID: 0x20000000,
  NEWNET: 0x40000000,
} as const

const namespaceFlags =
  CloneFlag.NEWNS |
  CloneFlag.NEWCGROUP |
  CloneFlag.NEWUTS |
  CloneFlag.NEWIPC |
  CloneFlag.NEWUSER |
  CloneFlag.NEWPID |
  CloneFlag.NEWNET

/**
 * Kernel attack surface no sandboxed process needs: debugging other processes, mounts and namespaces, BPF and
 * perf, userfaultfd and io_uring, the keyring, modules, kexec and reboot, swap, accounting, the clock,
 * execution domains, quotas, file handles, port I/O, kcmp, the kernel log, and device nodes.
 */
const kernelSurface: readonly SyscallName[] = [
  'ptrace',
  'process_vm_readv',
  'process_vm_writev',
  'pidfd_getfd',
  'kcmp',
  'mount',
  'umount2',
  'open_tree',
  'open_tree_attr',
  'move_mount',
  'fsopen',
  'fsconfig',
  'fsmount',
  'fspick',
  'mount_setattr',
  'pivot_root',
  'chroot',
  'unshare',
  'setns',
  'bpf',
  'perf_event_open',
  'userfaultfd',
  'io_uring_setup',
  'io_uring_enter',
  'io_uring_register',
  'keyctl',
  'add_key',
  'request_key',
  'init_module',
  'finit_module',
  'delete_module',
  'kexec_load',
  'kexec_file_load',
  'reboot',
  'swapon',
  'swapoff',
  'acct',
  'settimeofday',
  'clock_settime',
  'clock_adjtime',
  'adjtimex',
  'personality',
  'quotactl',
  'quotactl_fd',
  'name_to_handle_at',
  'open_by_handle_at',
  'iopl',
  'ioperm',
  'syslog',
  'mknod',
  'mknodat',
]

const refused = (syscall: SyscallName): SyscallRule => ({ syscall, errno: EPERM })

/**
 * System V IPC. A shared memory segment, message queue or semaphore set is kernel memory no rlimit counts, held
 * until removed or until its IPC namespace ends: a program pinned 2 GB of segments under a 384 MB address-space
 * limit (issue 14). Outside bubblewrap's private IPC namespace these calls also reach the host's own objects by id.
 * POSIX shared memory and semaphores are files in `/dev/shm`, bounded as files are. `shmdt` is left: it only detaches.
 */
const systemVIpc: readonly SyscallName[] = [
  'shmget',
  'shmat',
  'shmctl',
  'msgget',
  'msgsnd',
  'msgrcv',
  'msgctl',
  'semget',
  'semop',
  'semtimedop',
  'semctl',
]

/** glibc falls back from `clone3` to `clone` only on ENOSYS, and `clone`'s flags are an argument a filter can read. */
const clone3Rule: SyscallRule = { syscall: 'clone3', errno: ENOSYS }

/**
 * The toolkit's `bash`: processes, pipes and threads work; new namespaces, the kernel surface and System V IPC do not
 * (a command's segments would outlive its memory limits as a program's do; no common tool needs them).
 */
const shell: readonly SyscallRule[] = [
  clone3Rule,
  { syscall: 'clone', errno: EPERM, when: [{ test: 'any-bit', argument: 0, mask: namespaceFlags }] },
  ...kernelSurface.map(refused),
  ...systemVIpc.map(refused),
]

const signalTarget = (syscall: SyscallName): SyscallRule => ({
  syscall,
  errno: EPERM,
  when: [{ test: 'not-own-pid', argument: 0 }],
})

/** Address families (`linux/socket.h`): the two that reach the network, and the local one. */
export const AddressFamily = { UNIX: 1, INET: 2, INET6: 10 } as const

/** What a confined program may not do, networked or not: new processes or programs, new limits, memory files, signals to others. */
const programProcesses: readonly SyscallRule[] = [
  clone3Rule,
  {
    syscall: 'clone',
    errno: EPERM,
    when: [
      { test: 'any-bit', argument: 0, mask: namespaceFlags },
      { test: 'no-bit', argument: 0, mask: CloneFlag.THREAD },
    ],
  },
  ...(['fork', 'vfork', 'execve', 'execveat'] as const).map(refused),
  refused('setrlimit'),
  { syscall: 'prlimit64', errno: EPERM, when: [{ test: 'not-null', argument: 2 }] },
  refused('memfd_create'),
  refused('memfd_secret'),
  ...(['kill', 'tkill', 'tgkill', 'rt_sigqueueinfo', 'rt_tgsigqueueinfo', 'pidfd_open'] as const).map(signalTarget),
  refused('pidfd_send_signal'),
]

/** No sockets at all: the program reaches the host only through its channel. */
const noSockets: readonly SyscallRule[] = (
  ['socket', 'socketpair', 'connect', 'bind', 'listen', 'accept', 'accept4'] as const
).map(refused)

/**
 * IPv4 and IPv6 sockets only. Every other family stays refused: local sockets (in the host's network namespace
 * an abstract one reaches the host's daemons), netlink, packet, and the rarely used families that are mostly
 * kernel attack surface. `socketpair` only ever makes local sockets.
 */
const internetSockets: readonly SyscallRule[] = [
  {
    syscall: 'socket',
    errno: EPERM,
    when: [{ test: 'none-of', argument: 0, values: [AddressFamily.INET, AddressFamily.INET6] }],
  },
  refused('socketpair'),
]

/**
 * The Python runner once it is confined: the shell's rules, and no new processes or programs, no sockets, no
 * new resource limits, no anonymous memory files, and signals only to itself. `pidfd_send_signal` is refused
 * outright: its target is a file descriptor (a pidfd or a `/proc/<pid>` directory), which a filter cannot see into.
 */
const program: readonly SyscallRule[] = [
  ...programProcesses,
  ...noSockets,
  ...kernelSurface.map(refused),
  ...systemVIpc.map(refused),
]

/**
 * The runner of an approved escalated run whose escalation opens the network: the `program` rules, except that
 * IPv4 and IPv6 sockets work (connect, bind, listen, accept on them). Processes and programs stay refused.
 */
const networkedProgram: readonly SyscallRule[] = [
  ...programProcesses,
  ...internetSockets,
  ...kernelSurface.map(refused),
  ...systemVIpc.map(refused),
]

export type SeccompProfile = 'shell' | 'program' | 'networked-program'

/** The rules of each profile, in the order the filter checks them. */
export const seccompRules = {
  shell,
  program,
  'networked-program': networkedProgram,
} as const satisfies Record<SeccompProfile, readonly SyscallRule[]>
