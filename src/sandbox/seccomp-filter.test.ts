import { describe, expect, it } from 'vitest'
import {
  CLONE_SIGHAND,
  kernelSurfaceCalls,
  namespaceFlags,
  type Probe,
  programOnlyCalls,
  runProbes,
} from './__fixtures__/seccomp-probes.js'
import { BpfCode, decode, SeccompReturn } from './seccomp-bpf.js'
import {
  architectureFor,
  compileNumberedRules,
  compileRules,
  seccompFilter,
  seccompTemplate,
} from './seccomp-filter.js'
import { isSeccompFilterError, SeccompFilterProblem } from './seccomp-filter-error.js'
import { seccompRules } from './seccomp-rules.js'
import { seccompUnavailable } from './seccomp-support.js'
import { type SyscallName, syscallArchitectures } from './syscall-numbers.js'

const EPERM = SeccompReturn.errno(1)
const ENOSYS = SeccompReturn.errno(38)

function thrown(action: () => unknown): unknown {
  try {
    action()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('the encoding', () => {
  for (const arch of Object.keys(syscallArchitectures)) {
    for (const profile of ['shell', 'program'] as const) {
      it(`${profile} on ${arch}: checks the architecture first, jumps only forward inside the program`, () => {
        const architecture = architectureFor(arch)
        const { program, ownPidSlots } = seccompTemplate(profile, { arch })
        const instructions = decode(program)
        expect(program.length).toBe(instructions.length * 8)
        expect(instructions.length).toBeLessThan(4096)
        expect(instructions.slice(0, 4)).toEqual([
          { code: BpfCode.LOAD_WORD, jt: 0, jf: 0, k: 4 },
          { code: BpfCode.JUMP_EQUAL, jt: 1, jf: 0, k: architecture.auditArch },
          { code: BpfCode.RETURN, jt: 0, jf: 0, k: SeccompReturn.KILL_PROCESS },
          { code: BpfCode.LOAD_WORD, jt: 0, jf: 0, k: 0 },
        ])
        expect(instructions.at(-1)).toEqual({ code: BpfCode.RETURN, jt: 0, jf: 0, k: SeccompReturn.ALLOW })
        instructions.forEach((instruction, index) => {
          expect(Object.values(BpfCode)).toContain(instruction.code)
          if (instruction.code === BpfCode.LOAD_WORD) expect(instruction.k % 4 === 0 && instruction.k < 64).toBe(true)
          if (instruction.code === BpfCode.RETURN) {
            expect([SeccompReturn.ALLOW, SeccompReturn.KILL_PROCESS, EPERM, ENOSYS]).toContain(instruction.k)
          }
          const isJump = instruction.code === BpfCode.JUMP_EQUAL || instruction.code === BpfCode.JUMP_ANY_BIT
          if (isJump) expect(index + 1 + Math.max(instruction.jt, instruction.jf)).toBeLessThan(instructions.length)
          else expect([instruction.jt, instruction.jf]).toEqual([0, 0])
        })
        expect(ownPidSlots.length).toBe(profile === 'program' ? 6 : 0)
      })
    }
  }

  it('refuses x32 calls on x86_64 only, right after the architecture check', () => {
    const x64 = decode(seccompFilter('shell', { arch: 'x64' }))
    expect(x64.slice(4, 6)).toEqual([
      { code: BpfCode.JUMP_ANY_BIT, jt: 0, jf: 1, k: 0x40000000 },
      { code: BpfCode.RETURN, jt: 0, jf: 0, k: EPERM },
    ])
    expect(decode(seccompFilter('shell', { arch: 'arm64' })).some(({ k }) => k === 0x40000000)).toBe(false)
  })

  it('writes the own pid into every slot of the program profile and nowhere else', () => {
    const { program, ownPidSlots } = seccompTemplate('program')
    const filled = decode(seccompFilter('program', { ownPid: 4242 }))
    const template = decode(program)
    for (const slot of ownPidSlots) {
      expect(template[slot]).toMatchObject({ code: BpfCode.JUMP_EQUAL, k: 0 })
      expect(filled[slot]?.k).toBe(4242)
    }
    expect(filled.filter((instruction, index) => instruction.k !== template[index]?.k)).toHaveLength(6)
  })

  it('is the same bytes every time', () => {
    expect(seccompFilter('program', { ownPid: 7 }).equals(seccompFilter('program', { ownPid: 7 }))).toBe(true)
  })

  it('throws a branded error naming an architecture it has no table for', () => {
    const error = thrown(() => seccompFilter('shell', { arch: 'riscv64' }))
    expect(isSeccompFilterError(error)).toBe(true)
    expect(error).toMatchObject({ problem: SeccompFilterProblem.UNSUPPORTED_ARCH })
    expect((error as Error).message).toBe('no seccomp filter for the riscv64 architecture (supported: x64, arm64)')
    expect(isSeccompFilterError(thrown(() => seccompFilter('shell', { arch: 'toString' })))).toBe(true)
  })

  it('asks for the own pid of the program profile, and refuses one that is not a pid', () => {
    expect(thrown(() => seccompFilter('program'))).toMatchObject({ problem: SeccompFilterProblem.OWN_PID_REQUIRED })
    for (const ownPid of [0, -1, 1.5, 2 ** 31, Number.NaN]) {
      expect(thrown(() => seccompFilter('program', { ownPid }))).toMatchObject({
        problem: SeccompFilterProblem.INVALID_OWN_PID,
      })
    }
  })
})

/** 1500 refused made-up call numbers, every tenth refused only when its third argument is not NULL. */
const longRules = Array.from({ length: 1500 }, (_, index) => ({
  syscall: `made-up-${index}`,
  number: 1000 + index,
  errno: 1,
  ...(index % 10 === 0 ? { when: [{ test: 'not-null', argument: 2 } as const] } : {}),
}))

describe('a long rule list', () => {
  const architecture = architectureFor(process.arch === 'arm64' ? 'arm64' : 'x64')

  it('stays within the 8-bit offsets and the kernel limit', () => {
    const instructions = decode(compileNumberedRules(longRules, architecture).program)
    expect(instructions.length).toBeGreaterThan(3000)
    expect(instructions.length).toBeLessThanOrEqual(4096)
    const longest = Math.max(...instructions.map(({ jt, jf }) => Math.max(jt, jf)))
    expect(longest).toBeLessThan(8)
  })

  it.skipIf(seccompUnavailable() !== undefined)(
    'is loaded by the kernel and decides the first, last and conditional rules',
    () => {
      const { program } = compileNumberedRules(longRules, architecture)
      const raw = (name: string, nr: number, args: number[] = []): Probe => ({ name, kind: 'raw', nr, args })
      const { results } = runProbes(
        [
          raw('first', 1001),
          raw('last', 2499),
          raw('beyond', 2600),
          raw('conditional with NULL', 1010, [0, 0, 0]),
          raw('conditional with a pointer', 1010, [0, 0, 1]),
          { name: 'thread', kind: 'thread' },
        ],
        { program },
      )
      expect(results).toEqual({
        first: 'EPERM',
        last: 'EPERM',
        beyond: 'ENOSYS',
        'conditional with NULL': 'ENOSYS',
        'conditional with a pointer': 'EPERM',
        thread: 'ok 7',
      })
    },
  )
})

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

const surface = rawProbes(kernelSurfaceCalls)
const programOnly = rawProbes(programOnlyCalls)
const everything = [...surface, ...programOnly, ...cloneProbes, ...signalProbes, ...processProbes, ...x32Probe]
const named = (probes: readonly Probe[], result: string) => Object.fromEntries(probes.map(({ name }) => [name, result]))

describe.skipIf(!supported)('the filter in the kernel', () => {
  it('unfiltered, the probes do not fail with EPERM already (unprivileged: except calls checked for a capability first)', () => {
    const checkedForCapability = new Set(['move_mount', 'fsopen', 'fsmount', 'fspick', 'pivot_root', 'reboot'])
    for (const name of ['swapon', 'swapoff', 'acct', 'syslog', 'bpf', 'userfaultfd', 'perf_event_open']) {
      checkedForCapability.add(name)
    }
    const { results } = runProbes(everything)
    const root = process.getuid?.() === 0
    const eperm = Object.keys(results).filter((name) => results[name] === 'EPERM')
    expect(eperm.filter((name) => root || !checkedForCapability.has(name))).toEqual([])
    expect(results).toMatchObject({ personality: 'ok', clone3: 'EINVAL', 'prlimit64 set, high word': 'EFAULT' })
  })

  it('shell: refuses every kernel-surface class and new namespaces; processes, threads, sockets, signals work', () => {
    const { results } = runProbes(everything, { program: seccompFilter('shell') })
    expect(results).toEqual({
      ...named(surface, 'EPERM'),
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

  it('program: also refuses processes, programs, sockets, new limits and signals to others; threads work', () => {
    const { program, ownPidSlots } = seccompTemplate('program')
    const { results } = runProbes(everything, { program, ownPidSlots })
    expect(results).toEqual({
      ...named(surface, 'EPERM'),
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
    })
  })

  it.skipIf(process.arch !== 'x64')('kills a process that calls through the 32-bit entry point', () => {
    expect(runProbes([{ name: 'i386', kind: 'i386-getpid' }]).results).toEqual({ i386: 'ok' })
    for (const profile of ['shell', 'program'] as const) {
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
