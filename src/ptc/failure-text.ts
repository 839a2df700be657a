import type { PtcFailure, PtcFailureKind } from './failure-kinds.js'
import { quoteProgramWords } from './program-words.js'

/**
 * How both code-mode runtimes word each failure kind, from the facts the host knows. Only `runtime` and `syntax`
 * carry text from the program's side, and they show it marked as the program's (`quoteProgramWords`); every limit
 * is worded from the host's own limits, so a program that reports a limit cannot choose what the model reads.
 */
export const ptcFailureText = {
  syntax: (facts: { readonly detail: string }) => `parse error ${quoteProgramWords(facts.detail)}`,
  'unsupported-syntax': (facts: { readonly detail: string }) => facts.detail,
  runtime: (facts: { readonly thrown: string } | { readonly problem: string }) =>
    'thrown' in facts ? `program error ${quoteProgramWords(facts.thrown)}` : facts.problem,
  deadline: (facts: { readonly timeoutMs: number }) =>
    `the program ran past its ${facts.timeoutMs} ms deadline and was killed`,
  aborted: () => 'the run was cancelled',
  memory: () => 'the program ran out of sandbox memory',
  'output-limit': (facts: { readonly maxOutputBytes: number }) =>
    `the program printed more than ${facts.maxOutputBytes} bytes`,
  'result-limit': (facts: { readonly maxResultBytes: number } | { readonly maxDepth: number }) =>
    'maxDepth' in facts
      ? `the returned value nests deeper than ${facts.maxDepth} levels`
      : `the returned value is larger than ${facts.maxResultBytes} bytes as JSON`,
  'source-limit': (facts: { readonly maxSourceBytes: number }) =>
    `the program is longer than ${facts.maxSourceBytes} bytes`,
  'sub-call-limit': (facts: { readonly maxSubCalls: number }) =>
    `the program made more than ${facts.maxSubCalls} tool calls`,
  'input-budget': (facts: { readonly maxInputBytes: number }) =>
    `tool results passed the program's budget of ${facts.maxInputBytes} bytes`,
  'timer-limit': (facts: { readonly maxPendingTimers: number }) =>
    `the program had more than ${facts.maxPendingTimers} timers pending at once`,
  protocol: (facts: { readonly problem: string }) =>
    `the sandbox broke the host protocol and the run was stopped: ${facts.problem}`,
  sandbox: (facts: { readonly what: string; readonly diagnostics?: string }) =>
    facts.diagnostics === undefined ? facts.what : `${facts.what}; its stderr ${quoteProgramWords(facts.diagnostics)}`,
  busy: (facts: { readonly detail: string }) => facts.detail,
} as const satisfies Record<PtcFailureKind, (facts: never) => string>

/** The facts `ptcFailureText` needs to word a failure of kind `K`. */
export type PtcFailureFacts<K extends PtcFailureKind> = Parameters<(typeof ptcFailureText)[K]>[0]

/** A failure of `kind`, worded by the one table both runtimes share. */
export function ptcFailure<K extends PtcFailureKind>(
  kind: K,
  ...facts: PtcFailureFacts<K> extends undefined ? [] : [PtcFailureFacts<K>]
): PtcFailure {
  const word = ptcFailureText[kind] as (facts: unknown) => string
  return { kind, message: word(facts[0]) }
}
