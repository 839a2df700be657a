import { randomUUID } from 'node:crypto'
import type { ApprovalAnswer, ApprovalRecord, ClaimResult } from '../approvals/approval-store.js'
import { ToolErrorCode } from '../errors/error-codes.js'
import { approvalMessages } from './approval-messages.js'
import type { ToolResult } from './call.js'
import { failure, failureContent, thrownMessage } from './call-outcome.js'
import type { DeferredApprovals, PipelineScope } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import { runCall } from './run-call.js'
import { askedAtOf, outcomeOf, resultOf, settleUnrun, storedCall, storedOrigin } from './settled-approval.js'

/** A UUID is 36 characters; a store's own ids may be longer, but nothing past this is an id anyone minted. */
export const MAX_APPROVAL_ID_LENGTH = 200

/** How long a reason or a `decidedBy` may be before it is cut: they reach the model and the session log. */
const MAX_ANSWER_TEXT = 2_000

/** How many times `decide` goes round claim and wait before it gives up on a claim that keeps changing hands. */
const MAX_ROUNDS = 8

/** The scope a stored call runs in, opened for the call and released after it. */
export interface HeldScope {
  readonly scope: PipelineScope
  release(): void
}

/**
 * Settles a deferred approval, in this process or another sharing the store: claim it atomically, then carry out
 * the answer exactly once. An expired approval settles as `DENIED`; a denial settles as `DENIED` with its reason; a
 * claim taken over from a process that died settles as `INTERRUPTED` and never runs; an approval runs the stored
 * call through the pipeline again from validation on (the tool's current schema, listeners and guards, in the
 * record's agent scope), with this answer standing in for the approver. A settled approval answers its recorded
 * result; one another process is carrying out is waited for, within its lease. Never rejects.
 */
export async function decideApproval(
  deferred: DeferredApprovals,
  openScope: (agentId: string | undefined) => HeldScope,
  approvalId: unknown,
  answer: unknown,
): Promise<ToolResult> {
  if (typeof approvalId !== 'string' || approvalId.length === 0 || approvalId.length > MAX_APPROVAL_ID_LENGTH) {
    return unknownApproval(typeof approvalId === 'string' ? approvalId : String(approvalId))
  }
  const checked = checkedAnswer(answer)
  try {
    return await carryOut(deferred, openScope, approvalId, checked)
  } catch (thrown) {
    return standalone('', '', ToolErrorCode.TOOL_ERROR, approvalMessages.storeFailed(thrownMessage(thrown)))
  }
}

async function carryOut(
  deferred: DeferredApprovals,
  openScope: (agentId: string | undefined) => HeldScope,
  approvalId: string,
  answer: ApprovalAnswer,
): Promise<ToolResult> {
  const { store } = deferred
  let record = await store.getApproval(approvalId)
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (record === undefined) return unknownApproval(approvalId)
    if (record.state === 'settled' && record.outcome !== undefined) return resultOf(record, record.outcome)
    const held = openScope(record.agentId)
    try {
      const now = deferred.now()
      const expired = record.state === 'pending' && now >= record.expiresAt
      const carried: ApprovalAnswer = expired
        ? { approved: false, reason: approvalMessages.expired(record.toolName, record.expiresAt) }
        : answer
      const claimToken = randomUUID()
      const claim: ClaimResult = await store.claimApproval({
        approvalId,
        answer: carried,
        claimToken,
        at: now,
        leaseUntil: now + leaseOf(deferred, held.scope, record.toolName),
      })
      if (claim.status === 'unknown') return unknownApproval(approvalId)
      if (claim.status === 'taken') {
        record = await settledOrLapsed(deferred, claim.record)
        continue
      }
      const result = await settleClaimed(held.scope, claim.record, claim.abandoned, carried, now)
      if (await store.settleApproval(approvalId, claimToken, outcomeOf(result), deferred.now())) return result
      // Our lease ran out while the call ran and another process settled the approval: its record is the answer.
      const recorded = await store.getApproval(approvalId)
      return recorded?.outcome === undefined ? result : resultOf(recorded, recorded.outcome)
    } finally {
      held.release()
    }
  }
  return standalone(
    record?.callId ?? '',
    record?.toolName ?? '',
    ToolErrorCode.INTERRUPTED,
    approvalMessages.stillClaimed(),
  )
}

async function settleClaimed(
  scope: PipelineScope,
  record: ApprovalRecord,
  abandoned: boolean,
  answer: ApprovalAnswer,
  now: number,
): Promise<ToolResult> {
  const name = record.toolName
  if (abandoned) {
    // The answer the dead process carried out is unknown past its claim: the tool may have run; never again.
    const outcome = failure(ToolErrorCode.INTERRUPTED, approvalMessages.abandoned(name))
    return settleUnrun(scope, record, undefined, answer, outcome, now)
  }
  if (answer.approved !== true) {
    const reason = answer.reason !== undefined && answer.reason !== '' ? answer.reason : undefined
    const outcome = failure(ToolErrorCode.DENIED, reason ?? failureMessages.notApproved(name))
    return settleUnrun(scope, record, 'denied', answer, outcome, now)
  }
  // Approved: the stored call runs the pipeline again; the deferred call's started record stands for it.
  const decided = { answer, askedAt: askedAtOf(record, now) }
  return (await runCall(scope, storedCall(record), undefined, storedOrigin(record), undefined, decided)) as ToolResult
}

/**
 * Waits for the process holding the claim to settle it, polling with backoff, for as long as its lease runs. Answers
 * the settled record, or the record as it is once the lease lapsed (the next claim then takes it over).
 */
async function settledOrLapsed(
  deferred: DeferredApprovals,
  record: ApprovalRecord,
): Promise<ApprovalRecord | undefined> {
  let current: ApprovalRecord | undefined = record
  let pause = 2
  while (current !== undefined && current.state === 'claimed' && deferred.now() <= (current.leaseUntil ?? 0)) {
    await new Promise((resolve) => setTimeout(resolve, pause))
    pause = Math.min(pause * 2, 250)
    current = await deferred.store.getApproval(record.approvalId)
  }
  return current
}

/** The claim's lease: the tool's deadline and a minute, or the configured lease for a tool without one. */
function leaseOf(deferred: DeferredApprovals, scope: PipelineScope, toolName: string): number {
  const timeoutMs = scope.core.registry.resolve(scope.layer, toolName)?.definition.timeoutMs
  return typeof timeoutMs === 'number' ? timeoutMs + 60_000 : deferred.leaseMs
}

/** Fails closed: anything but `approved: true` denies; texts are cut to a bound. */
function checkedAnswer(answer: unknown): ApprovalAnswer {
  const given = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>
  const reason = typeof given.reason === 'string' ? given.reason.slice(0, MAX_ANSWER_TEXT) : undefined
  const decidedBy = typeof given.decidedBy === 'string' ? given.decidedBy.slice(0, 200) : undefined
  return {
    approved: given.approved === true,
    ...(reason === undefined ? {} : { reason }),
    ...(decidedBy === undefined ? {} : { decidedBy }),
  }
}

function unknownApproval(approvalId: string): ToolResult {
  return standalone('', '', ToolErrorCode.UNKNOWN_APPROVAL, approvalMessages.unknown(approvalId))
}

/** A failure that belongs to no call the pipeline ran: an unknown id, a store that failed. */
function standalone(id: string, name: string, code: ToolErrorCode, message: string): ToolResult {
  const error = Object.freeze({ code, message })
  return Object.freeze({ id, name, ok: false as const, error, content: failureContent(error), durationMs: 0 })
}
