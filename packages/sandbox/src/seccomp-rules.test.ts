import { describe, expect, it } from 'vitest'
import {
  CLONE_SIGHAND,
  kernelSurfaceCalls,
  namespaceFlags,
  type Probe,
  programOnlyCalls,
  runProbes,
} from './__fixtures__/seccomp-probes.js'
import { architectureFor, compileRules, seccompFilter, seccompTemplate } from './seccomp-filter.js'
import { seccompRules } from './seccomp-rules.js'
import { seccompUnavailable } from './seccomp-support.js'
import type { SyscallName } from './syscall-numbers.js'

/**
 * Each profile loaded into the kernel by a fresh python3 (prctl, as the Python runner does), then one call per
 * class: refused calls must get EPERM (clone3: ENOSYS), and what must keep working is tried as a control.
 */
const supported = seccompUnavailable() === undefined
const numbers = supported ? (architectureFor(process.arch).numbers as Partial<Record<SyscallName, number>>) : {}

function rawProbes(calls: Partial<Record<SyscallName, readonly (number | 'own-pid' | 'parent-pid')[]>>): Probe[] {
  return Object.entries(calls).flatMap(([name, args]) => {
    const nr = numbers[name as SyscallName]
    return nr === undefined || args === undefined ? [] : [{ name, kind: 'raw' as const, nr, args }]
  })
}

const cloneProbes: Probe[] = [
  ...Object.entries(namespaceFlags).map(([flag, value]) => ({
    name: `clone ${flag}`,
    kind: 'raw' as const,
    nr: numbers.clone ?? -1,
    args: [value | CLONE_SIGHAND, 0, 0, 0, 0],
  })),
  { name: 'clone process', kind: 'raw', nr: numbers.clone ?? -1, args: [CLONE_SIGHAND, 0, 0, 0, 0] },
  { name: 'clone thread', kind: 'raw', nr: numbers.clone ?? -1, args: [0x00010000 | CLONE_SIGHAND, 0, 0, 0, 0] },
  { name: 'clone3', kind: 'raw', nr: numbers.clone3 ?? -1, args: [0, 0] },
]

const signalProbes: Probe[] = [
  { name: 'kill own', kind: 'kill', pid: 'own-pid' },
  { name: 'kill parent', kind: 'kill', pid: 'parent-pid' },
  ...rawProbes({ tkill: ['parent-pid', 0], tgkill: ['parent-pid', 'parent-pid', 0] }),
  { name: 'tgkill own', kind: 'raw', nr: numbers.tgkill ?? -1, args: ['own-pid', 'own-pid', 0] },
  ...rawProbes({ rt_sigqueueinfo: ['parent-pid', 0, 1], rt_tgsigqueueinfo: ['parent-pid', 'parent-pid', 0, 1] }),
  { name: 'pidfd_open own', kind: 'raw', nr: numbers.pidfd_open ?? -1, args: ['own-pid', 0] },
  { name: 'pidfd_open parent', kind: 'raw', nr: numbers.pidfd_open ?? -1, args: ['parent-pid', 0] },
  { name: 'prlimit64 get', kind: 'raw', nr: numbers.prlimit64 ?? -1, args: [0, 7, 0, 0] },
  { name: 'prlimit64 set', kind: 'raw', nr: numbers.prlimit64 ?? -1, args: [0, 7, 1, 0] },
  { name: 'prlimit64 set, high word', kind: 'raw', nr: numbers.prlimit64 ?? -1, args: [0, 7, 2 ** 32, 0] },
]

const processProbes: Probe[] = [
  { name: 'thread', kind: 'thread' },
  { name: 'fork', kind: 'fork' },
  { name: 'spawn', kind: 'spawn' },
  { name: 'exec', kind: 'exec' },
  { name: 'socket', kind: 'socket' },
]

const x32Probe: Probe[] =
  process.arch === 'x64' ? [{ name: 'x32 getpid', kind: 'raw', nr: 0x40000000 | 39, args: [] }] : []

const SOCK_STREAM = 1
const SOCK_DGRAM = 2
const socketProbe = (name: string, family: number, type: number): Probe => ({
  name: `socket ${name}`,
  kind: 'raw',
  nr: numbers.socket ?? -1,
  args: [family, type, 0],
})

/** One `socket` call per address family that matters: only the internet ones may pass the networked profile. */
const familyProbes: Probe[] = [
  socketProbe('AF_INET stream', 2, SOCK_STREAM),
  socketProbe('AF_INET datagram', 2, SOCK_DGRAM),
  socketProbe('AF_INET6 stream', 10, SOCK_STREAM),
  socketProbe('AF_INET6 datagram', 10, SOCK_DGRAM),
  socketProbe('AF_UNIX stream', 1, SOCK_STREAM),
  socketProbe('AF_NETLINK', 16, 3),
  socketProbe('AF_PACKET', 17, 3),
  socketProbe('AF_ALG', 38, 5),
  socketProbe('AF_VSOCK', 40, SOCK_STREAM),
  // The kernel reads the family as an int, as the filter does: a high word does not turn AF_UNIX into something else.
  socketProbe('AF_UNIX with a high word', 2 ** 32 + 1, SOCK_STREAM),
]

/** System V IPC calls on ids and keys that do not exist, so the kernel refuses them unfiltered without making anything. */
const absentKey = 0x71696c6e
const systemVIpc = rawProbes({
  shmget: [absentKey, 4096, 0],
  shmat: [-1, 0, 0],
  shmctl: [-1, 2, 0],
  msgget: [absentKey, 0],
  msgsnd: [-1, 0, 0, 0],
  msgrcv: [-1, 0, 0, 0, 0],
  msgctl: [-1, 2, 0],
  semget: [absentKey, 1, 0],
  semop: [-1, 0, 0],
  semtimedop: [-1, 0, 0, 0],
  semctl: [-1, 0, 2, 0],
})

const surface = rawProbes(kernelSurfaceCalls)
const programOnly = rawProbes(programOnlyCalls)
const everything = [
  ...surface,
  ...systemVIpc,
  ...programOnly,
  ...cloneProbes,
  ...signalProbes,
  ...processProbes,
  ...x32Probe,
]
const named = (probes: readonly Probe[], result: string) => Object.fromEntries(probes.map(({ name }) => [name, result]))

describe.skipIf(!supported)('the filter in the kernel', () => {
  it('unfiltered, the probes do not fail with EPERM already (unprivileged: except calls checked for a capability first)', () => {
    const checkedForCapability = new Set(['move_mount', 'fsopen', 'fsmount', 'fspick', 'pivot_root', 'reboot'])
    checkedForCapability.add('socket AF_PACKET')
    for (const name of ['swapon', 'swapoff', 'acct', 'syslog', 'bpf', 'userfaultfd', 'perf_event_open']) {
      checkedForCapability.add(name)
    }
    const { results } = runProbes([...everything, ...familyProbes])
    const root = process.getuid?.() === 0
    const eperm = Object.keys(results).filter((name) => results[name] === 'EPERM')
    expect(eperm.filter((name) => root || !checkedForCapability.has(name))).toEqual([])
    expect(results).toMatchObject({ personality: 'ok', clone3: 'EINVAL', 'prlimit64 set, high word': 'EFAULT' })
    expect(results).toMatchObject({ shmget: 'ENOENT', msgget: 'ENOENT', semget: 'ENOENT', shmat: 'EINVAL' })
  })

  it('shell: refuses every kernel-surface class, System V IPC and new namespaces; processes, threads, sockets, signals work', () => {
    const { results } = runProbes(everything, { program: seccompFilter('shell') })
    expect(results).toEqual({
      ...named(surface, 'EPERM'),
      ...named(systemVIpc, 'EPERM'),
      ...Object.fromEntries(Object.keys(namespaceFlags).map((flag) => [`clone ${flag}`, 'EPERM'])),
      'clone process': 'EINVAL',
      'clone thread': 'EINVAL',
      clone3: 'ENOSYS',
      ...named(programOnly, expect.not.stringMatching(/^EPERM$/)),
      ...named(signalProbes, expect.not.stringMatching(/^EPERM$/)),
      thread: 'ok 7',
      fork: 'ok 0',
      spawn: 'ok 0',
      exec: 'ENOENT',
      socket: 'ok',
      ...(process.arch === 'x64' ? { 'x32 getpid': 'EPERM' } : {}),
    })
  })

  /** What the `program` profile answers to every probe. */
  const programResults = {
    ...named(surface, 'EPERM'),
    ...named(systemVIpc, 'EPERM'),
    ...named(programOnly, 'EPERM'),
    ...Object.fromEntries(Object.keys(namespaceFlags).map((flag) => [`clone ${flag}`, 'EPERM'])),
    'clone process': 'EPERM',
    'clone thread': 'EINVAL',
    clone3: 'ENOSYS',
    'kill own': 'ok',
    'kill parent': 'EPERM',
    tkill: 'EPERM',
    tgkill: 'EPERM',
    'tgkill own': 'ok',
    rt_sigqueueinfo: 'EPERM',
    rt_tgsigqueueinfo: 'EPERM',
    'pidfd_open own': 'ok',
    'pidfd_open parent': 'EPERM',
    'prlimit64 get': 'ok',
    'prlimit64 set': 'EPERM',
    'prlimit64 set, high word': 'EPERM',
    thread: 'ok 7',
    fork: 'EPERM',
    spawn: 'EPERM',
    exec: 'EPERM',
    socket: 'EPERM',
    ...(process.arch === 'x64' ? { 'x32 getpid': 'EPERM' } : {}),
  }

  it('program: also refuses processes, programs, sockets, new limits and signals to others; threads work', () => {
    const { program, ownPidSlots } = seccompTemplate('program')
    const { results } = runProbes([...everything, ...familyProbes], { program, ownPidSlots })
    expect(results).toEqual({ ...programResults, ...named(familyProbes, 'EPERM') })
  })

  it('networked-program: IPv4 and IPv6 sockets work (connect, bind, listen, accept reach the kernel); the rest is program', () => {
    const { results } = runProbes([...everything, ...familyProbes], seccompTemplate('networked-program'))
    expect(results).toEqual({
      ...programResults,
      // fd -1: the kernel itself answers, so the filter let the call through.
      ...Object.fromEntries(['connect', 'bind', 'listen', 'accept', 'accept4'].map((name) => [name, 'EBADF'])),
      socket: 'ok',
      'socket AF_INET stream': 'ok',
      'socket AF_INET datagram': 'ok',
      'socket AF_INET6 stream': 'ok',
      'socket AF_INET6 datagram': 'ok',
      // programOnlyCalls.socket is AF_UNIX, as is every socketpair.
      'socket AF_UNIX stream': 'EPERM',
      'socket AF_NETLINK': 'EPERM',
      'socket AF_PACKET': 'EPERM',
      'socket AF_ALG': 'EPERM',
      'socket AF_VSOCK': 'EPERM',
      'socket AF_UNIX with a high word': 'EPERM',
    })
  })

  it.skipIf(process.arch !== 'x64')('kills a process that calls through the 32-bit entry point', () => {
    expect(runProbes([{ name: 'i386', kind: 'i386-getpid' }]).results).toEqual({ i386: 'ok' })
    for (const profile of ['shell', 'program', 'networked-program'] as const) {
      const run = runProbes([{ name: 'i386', kind: 'i386-getpid' }], { ...seccompTemplate(profile) })
      expect(run.signal).toBe('SIGSYS')
    }
  })

  it('a probe notices a rule taken out (mutation check)', () => {
    const architecture = architectureFor(process.arch)
    const without = (name: SyscallName) => seccompRules.program.filter((rule) => rule.syscall !== name)
    const probes = [...rawProbes({ personality: kernelSurfaceCalls.personality }), signalProbes[1] as Probe]
    const intact = runProbes(probes, { ...compileRules(seccompRules.program, architecture) }).results
    expect(intact).toEqual({ personality: 'EPERM', 'kill parent': 'EPERM' })
    const noPersonality = compileRules(without('personality'), architecture)
    expect(runProbes(probes, { ...noPersonality }).results).toEqual({ personality: 'ok', 'kill parent': 'EPERM' })
    const noKill = compileRules(without('kill'), architecture)
    expect(runProbes(probes, { ...noKill }).results).toEqual({ personality: 'EPERM', 'kill parent': 'ok' })
  })
})
