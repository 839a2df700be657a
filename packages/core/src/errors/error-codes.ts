/**
 * Every way a call can settle other than success. Stable strings: hosts persist and branch on them.
 */
export const ToolErrorCode = {
  /** The tool is absent, or hidden from the caller's scope or presentation. */
  UNKNOWN_TOOL: 'UNKNOWN_TOOL',
  /**
   * A sub-call named a tool that was replaced, with other schemas, after it was offered to the caller (a code-mode
   * program's SDK binding): it is not run against schemas the caller never saw.
   */
  TOOL_CHANGED: 'TOOL_CHANGED',
  /** The arguments were not JSON, or did not match the parameter schema. */
  INVALID_ARGUMENTS: 'INVALID_ARGUMENTS',
  /** A pre-execute listener, guard or the approver refused the call. */
  DENIED: 'DENIED',
  /** The caller's signal was aborted before the tool body ran; the body was never called. */
  ABORTED_BEFORE_DISPATCH: 'ABORTED_BEFORE_DISPATCH',
  /** The caller's signal was aborted while the body ran, and the body would otherwise have succeeded. */
  ABORTED: 'ABORTED',
  /** The tool ran past its deadline (enforced by the timeout wrapper). */
  TOOL_TIMEOUT: 'TOOL_TIMEOUT',
  /** The tool body threw or reported a failure. */
  TOOL_ERROR: 'TOOL_ERROR',
  /** The tool returned a value that does not match its declared output schema. */
  INVALID_OUTPUT: 'INVALID_OUTPUT',
  /** An execute wrapper threw, or called `next` more than once. */
  WRAPPER_ERROR: 'WRAPPER_ERROR',
  /** A pre-execute or post-execute listener threw. */
  LISTENER_ERROR: 'LISTENER_ERROR',
  /** A post-execute listener blocked the result and gave the model feedback instead. */
  BLOCKED: 'BLOCKED',
  /** A `run_code` program failed: syntax, runtime error, limits, deadline. */
  CODE_RUN_FAILED: 'CODE_RUN_FAILED',
  /**
   * The process running the call (or deciding its approval) stopped before the call settled: the tool may or may
   * not have run, and it is never run again for the same call.
   */
  INTERRUPTED: 'INTERRUPTED',
  /** `decide` was given an approval id no store holds (or one too long to be an id). */
  UNKNOWN_APPROVAL: 'UNKNOWN_APPROVAL',
} as const

/** The union of every code a `ToolError` can carry. */
export type ToolErrorCode = (typeof ToolErrorCode)[keyof typeof ToolErrorCode]
