import type { ContentPart } from '../definition/content.js'
import type { ToolErrorInfo } from '../errors/tool-error.js'
import type { JsonObject, JsonValue } from '../json-schema/json-value.js'

/** Written when a call enters the pipeline, before any policy ran. */
export interface ToolCallStartedRecord {
  readonly type: 'tool.call.started'
  readonly id: string
  readonly name: string
  /** The parsed arguments, or the model's raw text when it was not JSON. */
  readonly arguments: JsonValue
  readonly agentId?: string
  /** The `run_code` call a PTC sub-call belongs to. */
  readonly parentId?: string
  /** Milliseconds since the epoch. */
  readonly at: number
}

/** Written exactly once per call, when its result is final. */
export interface ToolCallSettledRecord {
  readonly type: 'tool.call.settled'
  readonly id: string
  readonly name: string
  readonly ok: boolean
  /** What the model was shown. */
  readonly content: readonly ContentPart[]
  /** The whole content, when the result budget cut what the model was shown (`content` then ends with the note). */
  readonly wholeContent?: readonly ContentPart[]
  readonly error?: ToolErrorInfo
  /** The attempt that settled the call, when a `tools/execute` wrapper retried it (the first attempt is 1). */
  readonly attempt?: number
  readonly durationMs: number
  readonly metadata?: JsonObject
  readonly agentId?: string
  readonly parentId?: string
  readonly at: number
}

/**
 * Written when a `tools/execute` wrapper runs a call again (a retry): the attempt that failed, with its error. The
 * call keeps its id and still settles once.
 */
export interface ToolCallAttemptRecord {
  readonly type: 'tool.call.attempt'
  readonly id: string
  readonly name: string
  /** The attempt that failed; the first is 1. */
  readonly attempt: number
  /** Why it failed; absent when the inner layers rejected instead of answering. */
  readonly error?: ToolErrorInfo
  readonly agentId?: string
  readonly parentId?: string
  readonly at: number
}

/** Written when the approver answered a call that asked, before the call goes on or settles. */
export interface ToolCallApprovalRecord {
  readonly type: 'tool.call.approval'
  readonly id: string
  readonly name: string
  /** Every reason given for asking, in order. */
  readonly reasons: readonly string[]
  /** `approved`, `denied`, `failed` (the approver threw) or `aborted` (the caller cancelled while it waited). */
  readonly verdict: 'approved' | 'denied' | 'failed' | 'aborted'
  /** The approver's reason for a denial. */
  readonly reason?: string
  /** Who decided, as the approver named them. */
  readonly decidedBy?: string
  readonly waitedMs: number
  readonly agentId?: string
  readonly parentId?: string
  readonly at: number
}

/**
 * Written when a call that needs approval is deferred (`approvals: 'defer'`): it settles later, through
 * `runtime.decide`, whose approval and settled records carry the same call id.
 */
export interface ToolCallPendingRecord {
  readonly type: 'tool.call.pending'
  readonly id: string
  readonly name: string
  readonly approvalId: string
  /** Every reason given for asking, in order. */
  readonly reasons: readonly string[]
  /** Milliseconds since the epoch; past it the approval settles as `DENIED`. */
  readonly expiresAt: number
  readonly agentId?: string
  readonly parentId?: string
  readonly at: number
}

/**
 * Written (and awaited, with a durable log) before a call waits in memory for the approver: a log that holds this
 * record and no settled one for the call, nor for its `parentId`, was left by a process that died while it waited.
 */
export interface ToolCallWaitingRecord {
  readonly type: 'tool.call.waiting'
  readonly id: string
  readonly name: string
  readonly reasons: readonly string[]
  readonly agentId?: string
  readonly parentId?: string
  readonly at: number
}

/**
 * One entry of a session log: a call started, waited for or was deferred to an approval, an approval answered, an
 * attempt failed and is retried, or the call settled.
 */
export type SessionLogRecord =
  | ToolCallStartedRecord
  | ToolCallWaitingRecord
  | ToolCallPendingRecord
  | ToolCallApprovalRecord
  | ToolCallAttemptRecord
  | ToolCallSettledRecord

/**
 * Where the pipeline records what ran. A returned promise is awaited for settled records before the call's result
 * is handed back, so a durable log holds every result a caller has seen.
 */
export interface SessionLog {
  append(record: SessionLogRecord): void | Promise<void>
}
