import { randomUUID } from 'node:crypto'
import type { ApprovalRecord } from '../approvals/approval-store.js'
import { ToolErrorCode } from '../errors/error-codes.js'
import { approvalMessages } from './approval-messages.js'
import type { CallOutcome, PendingApproval, ToolPending } from './call.js'
import { failure, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { recordPending } from './session-recording.js'

/**
 * Defers a call that needs approval (`approvals: 'defer'`): its approval is stored durably, a pending record is
 * logged, and the call answers at once with a pending result instead of waiting. Its `tools/result` observers are
 * told nothing now: they see the one final result when `decide` settles the call. When the store refuses the
 * record, the call is not run and settles as a failure.
 */
export async function deferCall(run: CallRun): Promise<ToolPending | CallOutcome> {
  const deferred = run.scope.core.deferred!
  const info = run.info!
  const createdAt = deferred.now()
  const expiresAt = createdAt + deferred.ttlMs
  const approvalId = randomUUID()
  const agentId = run.scope.agentId
  const record: ApprovalRecord = {
    approvalId,
    callId: info.id,
    toolName: info.name,
    ...(agentId === undefined ? {} : { agentId }),
    ...(run.parentId === undefined ? {} : { parentId: run.parentId }),
    arguments: info.arguments,
    reasons: run.asks,
    createdAt,
    expiresAt,
    state: 'pending',
  }
  try {
    await deferred.store.putApproval(record)
  } catch (thrown) {
    return failure(ToolErrorCode.TOOL_ERROR, approvalMessages.notRecorded(info.name, thrownMessage(thrown)))
  }
  await recordPending(run, approvalId, expiresAt)
  const approval: PendingApproval = Object.freeze({
    toolName: info.name,
    arguments: info.arguments,
    reasons: run.asks,
    ...(agentId === undefined ? {} : { agentId }),
    expiresAt,
  })
  return Object.freeze({
    id: run.call.id,
    name: run.call.name,
    ok: false,
    status: 'pending',
    approvalId,
    approval,
    content: pendingContent(info.name),
    durationMs: performance.now() - run.startedAt,
  })
}

/** What the model reads meanwhile: one text part. */
export function pendingContent(name: string): ToolPending['content'] {
  return Object.freeze([Object.freeze({ type: 'text' as const, text: approvalMessages.awaiting(name) })])
}
