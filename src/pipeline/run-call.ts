import { ToolErrorCode } from '../errors/error-codes.js'
import { runApproval } from './approval-stage.js'
import type { ToolCall, ToolResult } from './call.js'
import { failure, isPromiseLike, thrownMessage } from './call-outcome.js'
import { type CallRun, openCall, type PipelineScope } from './call-run.js'
import { runExecuteWrappers } from './execute-wrappers.js'
import { failureMessages } from './failure-messages.js'
import { runFinalizeContent } from './finalize-content-stage.js'
import { runGuards } from './guard-stage.js'
import { outcomeAfterAbort } from './outcome-precedence.js'
import type { CallOutcome } from './pipeline-events.js'
import { runPostExecute } from './post-execute-stage.js'
import { runPreExecute } from './pre-execute-stage.js'
import { resolveCall } from './resolve-call.js'
import { settleCall } from './settle-call.js'

/**
 * The one place that knows the order of a call. Each stage may answer synchronously; the pipeline awaits only what
 * is actually pending. Whatever happens, the call settles exactly once and this never rejects.
 */
export async function runCall(
  scope: PipelineScope,
  call: ToolCall,
  signal: AbortSignal | undefined,
  parentId?: string,
): Promise<ToolResult> {
  const run = openCall(scope, call, signal, parentId)
  let outcome: CallOutcome
  try {
    outcome = await decide(run)
  } catch (thrown) {
    outcome = failure(ToolErrorCode.TOOL_ERROR, failureMessages.internal(thrownMessage(thrown)))
  }
  try {
    return await settleCall(run, outcome)
  } catch (thrown) {
    return settleCall(run, failure(ToolErrorCode.TOOL_ERROR, failureMessages.internal(thrownMessage(thrown))))
  }
}

async function decide(run: CallRun): Promise<CallOutcome> {
  // 1. Resolve the tool in the caller's scope; parse, validate and freeze the arguments.
  const invalid = resolveCall(run)
  if (invalid !== undefined) return invalid
  if (run.signal.aborted) return notDispatched(run)

  // 2. tools/pre-execute listeners: allow, deny (final) or ask.
  let verdict = runPreExecute(run)
  if (isPromiseLike(verdict)) verdict = await verdict
  if (!Array.isArray(verdict)) return verdict as CallOutcome

  // 3. Guards: a returned reason denies.
  const guarded = runGuards(run)
  if (guarded !== undefined) return guarded

  // 4. Approval, when anything asked.
  let refusal = runApproval(run, verdict)
  if (isPromiseLike(refusal)) refusal = await refusal
  if (refusal !== undefined) return refusal
  if (run.signal.aborted) return notDispatched(run)

  // 5 and 6. tools/execute wrappers around the body; output check and rendering.
  let outcome = runExecuteWrappers(run)
  if (isPromiseLike(outcome)) outcome = await outcome
  if (run.signal.aborted) outcome = afterAbort(run, outcome)

  // 7. tools/post-execute: replace, block or add contexts.
  let inspected = runPostExecute(run, outcome)
  if (isPromiseLike(inspected)) inspected = await inspected

  // 8. The definition's finalizeContent. (9, the result observers, run when the call settles.)
  return runFinalizeContent(run, inspected)
}

function notDispatched(run: CallRun): CallOutcome {
  return failure(ToolErrorCode.ABORTED_BEFORE_DISPATCH, failureMessages.abortedBeforeDispatch(run.call.name))
}

/** Cancellation only replaces a success; see the precedence table. */
function afterAbort(run: CallRun, outcome: CallOutcome): CallOutcome {
  const kind = outcome.ok ? 'OK' : outcome.error.code
  const replaced = outcomeAfterAbort(kind, run.dispatched ? 'after-dispatch' : 'before-dispatch')
  if (replaced === kind) return outcome
  const message =
    replaced === ToolErrorCode.ABORTED
      ? failureMessages.aborted(run.call.name)
      : failureMessages.abortedBeforeDispatch(run.call.name)
  return { ...failure(replaced as ToolErrorCode, message), ...(outcome.metadata ? { metadata: outcome.metadata } : {}) }
}
