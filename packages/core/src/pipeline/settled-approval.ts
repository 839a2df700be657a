import type { ApprovalAnswer, ApprovalRecord, SettledApprovalOutcome } from '../approvals/approval-store.js'
import type { ContentPart } from '../definition/content.js'
import type { JsonValue } from '../json-schema/json-value.js'
import { reportApproval } from './approval-report.js'
import type { CallOutcome, ToolFailure, ToolResult, ToolSuccess } from './call.js'
import { failureContent } from './call-outcome.js'
import { openCall, type PipelineScope } from './call-run.js'
import { mintCorrelationId } from './correlation-id.js'
import type { ApprovalVerdict } from './pipeline-events.js'
import { settleCall } from './settle-call.js'
import type { Step } from './step.js'

/** The stored call as `runCall` takes it: its id, tool and the frozen arguments the approver saw. */
export function storedCall(record: ApprovalRecord) {
  return { id: record.callId, name: record.toolName, arguments: record.arguments }
}

/** Where the stored call came from: a program's sub-call keeps its parent. */
export function storedOrigin(record: ApprovalRecord) {
  return record.parentId === undefined ? undefined : { parentId: record.parentId, escalated: false }
}

/** When the approval was asked for, on the `performance.now()` clock: so `waitedMs` is the wait since then. */
export function askedAtOf(record: ApprovalRecord, now: number): number {
  return performance.now() - Math.max(0, now - record.createdAt)
}

/**
 * Settles a deferred call that is not to run (denied, expired, or abandoned by a process that died): the approval
 * record and the settled record are logged under the call's id, and the `tools/result` observers see the result,
 * as for any call.
 */
export function settleUnrun(
  scope: PipelineScope,
  record: ApprovalRecord,
  verdict: ApprovalVerdict | undefined,
  answer: ApprovalAnswer,
  outcome: CallOutcome,
  now: number,
): Step<ToolResult> {
  const run = openCall(scope, storedCall(record), undefined, storedOrigin(record))
  run.info = Object.freeze({
    id: record.callId,
    name: record.toolName,
    arguments: record.arguments,
    agentId: scope.agentId,
    correlationId: mintCorrelationId(),
    parentId: record.parentId,
  })
  run.asks = record.reasons
  if (verdict !== undefined) reportApproval(run, verdict, answer, askedAtOf(record, now))
  return settleCall(run, outcome)
}

/** A settled result as the store keeps it: plain JSON. */
export function outcomeOf(result: ToolResult): SettledApprovalOutcome {
  const content = result.content as unknown as readonly JsonValue[]
  const common = {
    content,
    durationMs: result.durationMs,
    ...(result.metadata === undefined ? {} : { metadata: result.metadata }),
  }
  if (result.ok) return { ok: true, ...(result.value === undefined ? {} : { value: result.value }), ...common }
  return { ok: false, error: result.error, ...common }
}

/** The result a stored outcome stands for, as a second `decide` returns it. */
export function resultOf(record: ApprovalRecord, outcome: SettledApprovalOutcome): ToolResult {
  const { callId: id, toolName: name } = record
  const metadata = outcome.metadata === undefined ? {} : { metadata: outcome.metadata }
  if (outcome.ok) {
    const success: ToolSuccess = {
      id,
      name,
      ok: true,
      content: outcome.content as unknown as readonly ContentPart[],
      value: outcome.value ?? null,
      durationMs: outcome.durationMs,
      ...metadata,
    }
    return Object.freeze(success)
  }
  const error = Object.freeze({ ...(outcome.error ?? { code: 'TOOL_ERROR' as const, message: 'no error recorded' }) })
  const settled: ToolFailure = {
    id,
    name,
    ok: false,
    error,
    content: failureContent(error),
    durationMs: outcome.durationMs,
    ...metadata,
  }
  return Object.freeze(settled)
}
