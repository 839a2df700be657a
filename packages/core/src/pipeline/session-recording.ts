import { thrownMessage } from '../errors/thrown-message.js'
import type { ToolErrorInfo } from '../errors/tool-error.js'
import type { JsonValue } from '../json-schema/json-value.js'
import type {
  SessionLog,
  SessionLogRecord,
  ToolCallAttemptRecord,
  ToolCallSettledRecord,
  ToolCallStartedRecord,
} from '../session-log/session-log.js'
import type { ToolResult } from './call.js'
import { isPromiseLike } from './call-outcome.js'
import { type CallRun, notesOf } from './call-run.js'
import type { ApprovalEvent } from './pipeline-events.js'

/** Logs the call as it arrived. Not awaited: durability is promised for settled records. */
export function recordStarted(run: CallRun, normalizedArguments: JsonValue): void {
  const log = run.scope.core.sessionLog
  if (log === undefined) return
  const agentId = run.scope.agentId
  const record: ToolCallStartedRecord = {
    type: 'tool.call.started',
    id: run.call.id,
    name: run.call.name,
    arguments: normalizedArguments,
    ...(agentId === undefined ? {} : { agentId }),
    ...(run.parentId === undefined ? {} : { parentId: run.parentId }),
    at: Date.now(),
  }
  append(log, record)
}

/** Logs the final result; the returned promise (if any) settles once the log holds it. Never rejects. */
export function recordSettled(run: CallRun, result: ToolResult): void | Promise<void> {
  const log = run.scope.core.sessionLog
  if (log === undefined) return
  const agentId = run.scope.agentId
  const notes = notesOf(run)
  const record: ToolCallSettledRecord = {
    type: 'tool.call.settled',
    id: result.id,
    name: result.name,
    ok: result.ok,
    content: result.content,
    ...(notes?.wholeContent === undefined ? {} : { wholeContent: notes.wholeContent }),
    ...(result.ok ? {} : { error: result.error }),
    ...(notes === undefined || notes.attempt === 1 ? {} : { attempt: notes.attempt }),
    durationMs: result.durationMs,
    ...(result.metadata === undefined ? {} : { metadata: result.metadata }),
    ...(agentId === undefined ? {} : { agentId }),
    ...(run.parentId === undefined ? {} : { parentId: run.parentId }),
    at: Date.now(),
  }
  return append(log, record)
}

/** Logs an attempt that failed and is about to be retried. Not awaited, as a started record is not. */
export function recordAttempt(run: CallRun, attempt: number, error: ToolErrorInfo | undefined): void {
  const log = run.scope.core.sessionLog
  if (log === undefined) return
  const agentId = run.scope.agentId
  const record: ToolCallAttemptRecord = {
    type: 'tool.call.attempt',
    id: run.call.id,
    name: run.call.name,
    attempt,
    ...(error === undefined ? {} : { error }),
    ...(agentId === undefined ? {} : { agentId }),
    ...(run.parentId === undefined ? {} : { parentId: run.parentId }),
    at: Date.now(),
  }
  append(log, record)
}

/**
 * Logs that a call starts waiting in memory for the approver; the returned promise (if any) settles once a durable
 * log holds the record. Never rejects.
 */
export function recordWaiting(run: CallRun): void | Promise<void> {
  const log = run.scope.core.sessionLog
  if (log === undefined) return
  const agentId = run.scope.agentId
  return append(log, {
    type: 'tool.call.waiting',
    id: run.call.id,
    name: run.call.name,
    reasons: run.asks,
    ...(agentId === undefined ? {} : { agentId }),
    ...(run.parentId === undefined ? {} : { parentId: run.parentId }),
    at: Date.now(),
  })
}

/** Logs that a call was deferred to `decide`, once its approval is stored; awaited like a settled record. */
export function recordPending(run: CallRun, approvalId: string, expiresAt: number): void | Promise<void> {
  const log = run.scope.core.sessionLog
  if (log === undefined) return
  const agentId = run.scope.agentId
  return append(log, {
    type: 'tool.call.pending',
    id: run.call.id,
    name: run.call.name,
    approvalId,
    reasons: run.asks,
    expiresAt,
    ...(agentId === undefined ? {} : { agentId }),
    ...(run.parentId === undefined ? {} : { parentId: run.parentId }),
    at: Date.now(),
  })
}

/** Logs an approval's answer. Not awaited, like the started record. */
export function recordApproval(run: CallRun, event: ApprovalEvent): void {
  const log = run.scope.core.sessionLog
  if (log === undefined) return
  const agentId = run.scope.agentId
  append(log, {
    type: 'tool.call.approval',
    id: run.call.id,
    name: run.call.name,
    reasons: event.reasons,
    verdict: event.verdict,
    ...(event.reason === undefined ? {} : { reason: event.reason }),
    ...(event.decidedBy === undefined ? {} : { decidedBy: event.decidedBy }),
    waitedMs: event.waitedMs,
    ...(agentId === undefined ? {} : { agentId }),
    ...(run.parentId === undefined ? {} : { parentId: run.parentId }),
    at: Date.now(),
  })
}

function append(log: SessionLog, record: SessionLogRecord): void | Promise<void> {
  try {
    const written = log.append(record)
    if (isPromiseLike(written)) return Promise.resolve(written).catch(reportLogFailure)
  } catch (error) {
    reportLogFailure(error)
  }
}

/** A log that fails must not fail the call; the failure still has to be visible to the operator. */
function reportLogFailure(error: unknown): void {
  process.emitWarning(`qilin-tools: session log append failed: ${thrownMessage(error)}`)
}
