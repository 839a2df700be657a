import {
  type Assembled,
  assemble,
  BpfCode,
  patchSlots,
  SeccompData,
  SeccompReturn,
  type Statement,
} from './seccomp-bpf.js'
import { SeccompFilterError, SeccompFilterProblem } from './seccomp-filter-error.js'
import { type ArgumentTest, type SeccompProfile, type SyscallRule, seccompRules } from './seccomp-rules.js'
import { type SyscallArchitecture, syscallArchitectures } from './syscall-numbers.js'

export type { SeccompProfile } from './seccomp-rules.js'

export interface SeccompOptions {
  /** The architecture to encode for, by Node's name (`process.arch`). Default: this process's. */
  readonly arch?: string
  /**
   * The pid the program profiles may signal, as the filtered process sees it (inside a pid namespace, not the
   * host's). Required for `program` and `networked-program`; a runner that learns its pid only once started uses
   * `seccompTemplate`.
   */
  readonly ownPid?: number
}

/** A program whose own-pid slots still hold 0: the filtered process writes its pid into each `k` before loading. */
export interface SeccompTemplate extends Assembled {}

/** A classic-BPF program: struct sock_filter[] in native byte order, for `bwrap --seccomp FD` or prctl. */
export function seccompFilter(profile: SeccompProfile, options: SeccompOptions = {}): Buffer {
  const template = seccompTemplate(profile, options)
  if (template.ownPidSlots.length === 0) return template.program
  if (options.ownPid === undefined) {
    throw new SeccompFilterError(
      SeccompFilterProblem.OWN_PID_REQUIRED,
      `the ${profile} seccomp profile lets a process signal only itself: pass options.ownPid, or fill the slots of seccompTemplate('${profile}') in the process`,
    )
  }
  if (!Number.isInteger(options.ownPid) || options.ownPid < 1 || options.ownPid > 0x7fffffff) {
    throw new SeccompFilterError(
      SeccompFilterProblem.INVALID_OWN_PID,
      `ownPid must be a positive 32-bit integer, not ${String(options.ownPid)}`,
    )
  }
  return patchSlots(template.program, template.ownPidSlots, options.ownPid)
}

/** The program for `profile` with its own-pid slots at 0, and where those slots are. */
export function seccompTemplate(profile: SeccompProfile, options: Pick<SeccompOptions, 'arch'> = {}): SeccompTemplate {
  return compileRules(seccompRules[profile], architectureFor(options.arch ?? process.arch))
}

export function architectureFor(arch: string): SyscallArchitecture {
  const found = Object.hasOwn(syscallArchitectures, arch)
    ? syscallArchitectures[arch as keyof typeof syscallArchitectures]
    : undefined
  if (found === undefined) {
    const supported = Object.keys(syscallArchitectures).join(', ')
    throw new SeccompFilterError(
      SeccompFilterProblem.UNSUPPORTED_ARCH,
      `no seccomp filter for the ${arch} architecture (supported: ${supported})`,
    )
  }
  return found
}

/**
 * The filter, as straight-line checks that only ever jump forward a few instructions: the architecture
 * (another one, e.g. 32-bit `int 0x80` calls on x86_64, kills the process), the second ABI (x32: EPERM, like
 * any refused call), then one check per rule, each followed by its own returns, and finally allow.
 * A rule's block is at most a dozen instructions whatever the rule count, so no offset can outgrow 8 bits.
 */
export function compileRules(rules: readonly SyscallRule[], architecture: SyscallArchitecture): Assembled {
  return compileNumberedRules(
    rules.flatMap((rule) => {
      const number = architecture.numbers[rule.syscall]
      return number === undefined ? [] : [{ ...rule, number }]
    }),
    architecture,
  )
}

/** A rule with its call number on the architecture at hand. */
export type NumberedRule = Omit<SyscallRule, 'syscall'> & { readonly syscall: string; readonly number: number }

export function compileNumberedRules(rules: readonly NumberedRule[], architecture: SyscallArchitecture): Assembled {
  const ownArchitecture = Symbol('own architecture')
  const statements: Statement[] = [
    { code: BpfCode.LOAD_WORD, k: SeccompData.ARCH },
    { code: BpfCode.JUMP_EQUAL, k: architecture.auditArch, jt: ownArchitecture, jf: 'next' },
    { code: BpfCode.RETURN, k: SeccompReturn.KILL_PROCESS },
    { label: ownArchitecture },
    { code: BpfCode.LOAD_WORD, k: SeccompData.NR },
  ]
  if (architecture.foreignAbiBit !== undefined) {
    const nativeAbi = Symbol('native ABI')
    statements.push(
      { code: BpfCode.JUMP_ANY_BIT, k: architecture.foreignAbiBit, jt: 'next', jf: nativeAbi },
      { code: BpfCode.RETURN, k: SeccompReturn.errno(EPERM) },
      { label: nativeAbi },
    )
  }
  for (const rule of rules) statements.push(...ruleBlock(rule))
  statements.push({ code: BpfCode.RETURN, k: SeccompReturn.ALLOW })
  return assemble(statements)
}

const EPERM = 1

/** `A` holds the call number on entry and on the way out; a matching call never leaves the block. */
function ruleBlock(rule: NumberedRule): Statement[] {
  const after = Symbol(`after ${rule.syscall}`)
  const refuse = Symbol(`refuse ${rule.syscall}`)
  const tests = (rule.when ?? []).flatMap((test) => argumentCheck(test, refuse))
  return [
    { code: BpfCode.JUMP_EQUAL, k: rule.number, jt: 'next', jf: after },
    ...tests,
    ...(tests.length === 0 ? [] : [{ code: BpfCode.RETURN, k: SeccompReturn.ALLOW }]),
    { label: refuse },
    { code: BpfCode.RETURN, k: SeccompReturn.errno(rule.errno) },
    { label: after },
  ]
}

/** Jumps to `refuse` when the test holds, falls through when it does not. */
function argumentCheck(test: ArgumentTest, refuse: symbol): Statement[] {
  const low = { code: BpfCode.LOAD_WORD, k: SeccompData.argumentLow(test.argument) }
  switch (test.test) {
    case 'any-bit':
      return [low, { code: BpfCode.JUMP_ANY_BIT, k: test.mask, jt: refuse, jf: 'next' }]
    case 'no-bit':
      return [low, { code: BpfCode.JUMP_ANY_BIT, k: test.mask, jt: 'next', jf: refuse }]
    case 'not-own-pid':
      return [low, { code: BpfCode.JUMP_EQUAL, k: 0, jt: 'next', jf: refuse, ownPid: true }]
    case 'not-null':
      return [
        low,
        { code: BpfCode.JUMP_EQUAL, k: 0, jt: 'next', jf: refuse },
        { code: BpfCode.LOAD_WORD, k: SeccompData.argumentHigh(test.argument) },
        { code: BpfCode.JUMP_EQUAL, k: 0, jt: 'next', jf: refuse },
      ]
    case 'none-of': {
      // No values: the test always holds.
      if (test.values.length === 0) return [{ code: BpfCode.JUMP_EQUAL, k: 0, jt: refuse, jf: refuse }]
      const matched = Symbol('one of the values')
      const last = test.values.length - 1
      const jumps = test.values.map(
        (value, index): Statement => ({
          code: BpfCode.JUMP_EQUAL,
          k: value,
          jt: matched,
          jf: index === last ? refuse : 'next',
        }),
      )
      return [low, ...jumps, { label: matched }]
    }
  }
}
