import { spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { type Probe, probeDirectory, runProbes } from './__fixtures__/seccomp-probes.js'
import { BpfCode, decode, SeccompReturn } from './seccomp-bpf.js'
import { architectureFor, compileNumberedRules, seccompFilter, seccompTemplate } from './seccomp-filter.js'
import { isSeccompFilterError, SeccompFilterProblem } from './seccomp-filter-error.js'
import { seccompUnavailable } from './seccomp-support.js'
import { syscallArchitectures } from './syscall-numbers.js'

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
    for (const profile of ['shell', 'program', 'networked-program'] as const) {
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
        expect(ownPidSlots.length).toBe(profile === 'shell' ? 0 : 6)
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

  it('none-of: refuses unless the argument is one of the values; with no values, always', () => {
    const architecture = architectureFor('x64')
    const rule = (values: readonly number[]) => ({
      syscall: 'socket',
      number: 41,
      errno: 1,
      when: [{ test: 'none-of', argument: 0, values } as const],
    })
    const two = decode(compileNumberedRules([rule([2, 10])], architecture).program).slice(6)
    expect(two).toEqual([
      { code: BpfCode.JUMP_EQUAL, jt: 0, jf: 5, k: 41 },
      { code: BpfCode.LOAD_WORD, jt: 0, jf: 0, k: 16 },
      { code: BpfCode.JUMP_EQUAL, jt: 1, jf: 0, k: 2 },
      { code: BpfCode.JUMP_EQUAL, jt: 0, jf: 1, k: 10 },
      { code: BpfCode.RETURN, jt: 0, jf: 0, k: SeccompReturn.ALLOW },
      { code: BpfCode.RETURN, jt: 0, jf: 0, k: EPERM },
      { code: BpfCode.RETURN, jt: 0, jf: 0, k: SeccompReturn.ALLOW },
    ])
    const none = decode(compileNumberedRules([rule([])], architecture).program).slice(6)
    expect(none).toEqual([
      { code: BpfCode.JUMP_EQUAL, jt: 0, jf: 3, k: 41 },
      { code: BpfCode.JUMP_EQUAL, jt: 1, jf: 1, k: 0 },
      { code: BpfCode.RETURN, jt: 0, jf: 0, k: SeccompReturn.ALLOW },
      { code: BpfCode.RETURN, jt: 0, jf: 0, k: EPERM },
      { code: BpfCode.RETURN, jt: 0, jf: 0, k: SeccompReturn.ALLOW },
    ])
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

/** What bubblewrap needs to give the command the filter: a file on fd 3, `--seccomp 3`. */
function withFilterFile<T>(filter: Buffer, use: (descriptor: number) => T): T {
  const directory = mkdtempSync(join(tmpdir(), 'qilin-seccomp-'))
  const path = join(directory, 'filter.bpf')
  writeFileSync(path, filter)
  const descriptor = openSync(path, 'r')
  try {
    return use(descriptor)
  } finally {
    closeSync(descriptor)
    rmSync(directory, { recursive: true, force: true })
  }
}

const sandbox = ['--unshare-all', '--die-with-parent', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev']
// The probe script is bound back in after the tmpfs: CI's checkout lives under /tmp.
const sandboxed = [
  ...sandbox,
  '--proc',
  '/proc',
  '--tmpfs',
  '/tmp',
  '--ro-bind',
  probeDirectory,
  probeDirectory,
  '--chdir',
  '/tmp',
]

describe.skipIf(!hasSystemPart('bubblewrap', 'seccomp filter under bubblewrap'))('bwrap --seccomp', () => {
  function bashUnderShellFilter(script: string): { stdout: string; stderr: string; status: number | null } {
    return withFilterFile(seccompFilter('shell'), (descriptor) => {
      const child = spawnSync('bwrap', [...sandboxed, '--seccomp', '3', 'bash', '-c', script], {
        encoding: 'utf8',
        timeout: 20_000,
        stdio: ['ignore', 'pipe', 'pipe', descriptor],
      })
      return { stdout: child.stdout, stderr: child.stderr, status: child.status }
    })
  }

  it('shell: bash runs command substitution, pipes, a subshell, a background job and python threads', () => {
    const threads = `python3 -c 'import threading; t = threading.Thread(target=print, args=("thread",)); t.start(); t.join()'`
    const script = `echo $(echo hi) | cat; (echo sub; exit 3); echo "status $?"; sleep 0.05 & wait $! && echo job; ${threads}`
    expect(bashUnderShellFilter(script)).toEqual({ stdout: 'hi\nsub\nstatus 3\njob\nthread\n', stderr: '', status: 0 })
  })

  it('shell: refuses new namespaces to the commands bash runs', () => {
    const result = bashUnderShellFilter(
      `unshare --user true; echo "unshare $?"; bwrap ${sandbox.join(' ')} true; echo "bwrap $?"`,
    )
    expect(result.stdout).toBe('unshare 1\nbwrap 1\n')
    expect(result.stderr).toMatch(/unshare failed: Operation not permitted/)
  })

  it('shell: bubblewrap loads the same program the kernel tests ran (a refused call, a working thread)', () => {
    const probes: Probe[] = [
      { name: 'personality', kind: 'raw', nr: architectureFor(process.arch).numbers.personality ?? -1, args: [-1] },
      { name: 'thread', kind: 'thread' },
    ]
    const run = withFilterFile(seccompFilter('shell'), (extraFd) =>
      runProbes(probes, undefined, { prefix: ['bwrap', ...sandboxed, '--seccomp', '3'], extraFd }),
    )
    expect(run.results).toEqual({ personality: 'EPERM', thread: 'ok 7' })
  })

  it('program: the runner fills in its pid inside a pid namespace; it may signal itself, not pid 1', () => {
    const probes: Probe[] = [
      {
        name: 'kill 2, its pid in the namespace',
        kind: 'raw',
        nr: architectureFor(process.arch).numbers.kill ?? -1,
        args: [2, 0],
      },
      { name: 'kill own', kind: 'kill', pid: 'own-pid' },
      { name: 'kill 1', kind: 'kill', pid: 1 },
      { name: 'thread', kind: 'thread' },
    ]
    const run = runProbes(probes, seccompTemplate('program'), { prefix: ['bwrap', ...sandboxed] })
    expect(run.results).toEqual({
      'kill 2, its pid in the namespace': 'ok',
      'kill own': 'ok',
      'kill 1': 'EPERM',
      thread: 'ok 7',
    })
  })
})
