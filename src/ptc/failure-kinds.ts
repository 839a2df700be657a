/**
 * Every way a `run_code` program can fail, each its own kind so hosts and tests can tell them apart.
 * The model reads the kind in `code run failed (<kind>): <message>`.
 */
export const PtcFailureKind = {
  /** The program does not parse. */
  SYNTAX: 'syntax',
  /** TypeScript that cannot be erased: enum, namespace, parameter properties, `<T>x` casts. */
  UNSUPPORTED_SYNTAX: 'unsupported-syntax',
  /** The program threw, or returned something that is not JSON. */
  RUNTIME: 'runtime',
  /** The wall-clock deadline passed; the sandbox was killed. */
  DEADLINE: 'deadline',
  /** The caller cancelled the run; the sandbox was killed. */
  ABORTED: 'aborted',
  /** The sandbox heap limit was reached. */
  MEMORY: 'memory',
  /** More printed output than the cap. */
  OUTPUT_LIMIT: 'output-limit',
  /** A returned value larger than the cap. */
  RESULT_LIMIT: 'result-limit',
  /** A program text larger than the cap. */
  SOURCE_LIMIT: 'source-limit',
  /** More tool calls than the cap. */
  SUB_CALL_LIMIT: 'sub-call-limit',
  /** More bytes of tool results entered the program than the budget. */
  INPUT_BUDGET: 'input-budget',
  /** More timers pending at once than the cap. */
  TIMER_LIMIT: 'timer-limit',
  /** The program's side of the channel sent malformed or unknown messages past the budget, or a malformed end. */
  PROTOCOL: 'protocol',
  /** The sandbox itself broke; not the program's fault. */
  SANDBOX: 'sandbox',
  /** So many programs were running and waiting that this one was refused before it started; retry later. */
  BUSY: 'busy',
} as const

/** The union of the ways a code-mode run can fail. */
export type PtcFailureKind = (typeof PtcFailureKind)[keyof typeof PtcFailureKind]

/** A failed run before rendering: its kind and what happened. */
export interface PtcFailure {
  readonly kind: PtcFailureKind
  readonly message: string
}
