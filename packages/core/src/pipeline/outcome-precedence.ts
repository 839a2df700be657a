import { ToolErrorCode } from '../errors/error-codes.js'

/** A call's outcome before cancellation is considered: success, or the code of its failure. */
export type OutcomeKind = 'OK' | ToolErrorCode

/** When the caller's signal was seen aborted, relative to the tool body. */
export type AbortPhase = 'before-dispatch' | 'after-dispatch'

type Row = { readonly [Phase in AbortPhase]: OutcomeKind }

const keep = (kind: OutcomeKind): Row => ({ 'before-dispatch': kind, 'after-dispatch': kind })

/**
 * What a caller's abort turns each outcome into. Cancellation only ever replaces success: a call that never reached
 * its body reports `ABORTED_BEFORE_DISPATCH`, one whose body ran reports `ABORTED`. Every failure is more specific
 * than the abort and keeps its code, `TOOL_TIMEOUT` included.
 */
export const abortPrecedence = {
  OK: { 'before-dispatch': ToolErrorCode.ABORTED_BEFORE_DISPATCH, 'after-dispatch': ToolErrorCode.ABORTED },
  UNKNOWN_TOOL: keep(ToolErrorCode.UNKNOWN_TOOL),
  TOOL_CHANGED: keep(ToolErrorCode.TOOL_CHANGED),
  INVALID_ARGUMENTS: keep(ToolErrorCode.INVALID_ARGUMENTS),
  DENIED: keep(ToolErrorCode.DENIED),
  ABORTED_BEFORE_DISPATCH: keep(ToolErrorCode.ABORTED_BEFORE_DISPATCH),
  ABORTED: keep(ToolErrorCode.ABORTED),
  TOOL_TIMEOUT: keep(ToolErrorCode.TOOL_TIMEOUT),
  TOOL_ERROR: keep(ToolErrorCode.TOOL_ERROR),
  INVALID_OUTPUT: keep(ToolErrorCode.INVALID_OUTPUT),
  WRAPPER_ERROR: keep(ToolErrorCode.WRAPPER_ERROR),
  LISTENER_ERROR: keep(ToolErrorCode.LISTENER_ERROR),
  BLOCKED: keep(ToolErrorCode.BLOCKED),
  CODE_RUN_FAILED: keep(ToolErrorCode.CODE_RUN_FAILED),
  INTERRUPTED: keep(ToolErrorCode.INTERRUPTED),
  UNKNOWN_APPROVAL: keep(ToolErrorCode.UNKNOWN_APPROVAL),
} as const satisfies Record<OutcomeKind, Row>

export function outcomeAfterAbort(kind: OutcomeKind, phase: AbortPhase): OutcomeKind {
  return abortPrecedence[kind][phase]
}
