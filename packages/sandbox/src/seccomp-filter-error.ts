import { brandError } from 'qilin-tools/internal/errors/brand.js'
/** Why a seccomp filter could not be generated. */
export const SeccompFilterProblem = {
  /** The architecture has no syscall table here (only x64 and arm64 do). */
  UNSUPPORTED_ARCH: 'unsupported-arch',
  /** The `program` profile was asked for without the pid it may signal. */
  OWN_PID_REQUIRED: 'own-pid-required',
  /** `ownPid` is not a positive 32-bit integer. */
  INVALID_OWN_PID: 'invalid-own-pid',
  /** A jump does not fit classic BPF's 8-bit forward offset (a bug in the generator, never silently truncated). */
  JUMP_OUT_OF_RANGE: 'jump-out-of-range',
  /** Longer than the kernel's 4096-instruction limit. */
  PROGRAM_TOO_LONG: 'program-too-long',
} as const

export type SeccompFilterProblem = (typeof SeccompFilterProblem)[keyof typeof SeccompFilterProblem]

/** Thrown by the seccomp filter generator; `problem` is stable, the message says what to change. */
export class SeccompFilterError extends Error {
  readonly problem: SeccompFilterProblem

  constructor(problem: SeccompFilterProblem, message: string) {
    super(message)
    this.name = 'SeccompFilterError'
    this.problem = problem
  }
}

/** Recognises a SeccompFilterError from any copy of this package or realm. */
export const isSeccompFilterError = brandError(SeccompFilterError, 'SeccompFilterError')
