import { ToolErrorCode } from '../errors/error-codes.js'
import { runApproval } from './approval-stage.js'
import type { CallOutcome, ToolCall, ToolResult } from './call.js'
import { failure, thrownMessage } from './call-outcome.js'
import { type CallRun, isCancelled, openCall, type PipelineScope, type PreparedCall } from './call-run.js'
import { runExecuteWrappers } from './execute-wrappers.js'
import { failureMessages } from './failure-messages.js'
import { runFinalizeContent } from './finalize-content-stage.js'
import { runGuards } from './guard-stage.js'
import { outcomeAfterAbort } from './outcome-precedence.js'
import { runParseArguments } from './parse-arguments-stage.js'
import { runPostExecute } from './post-execute-stage.js'
import { runPreExecute } from './pre-execute-stage.js'
import { resolveCall } from './resolve-call.js'
import { settleCall } from './settle-call.js'
import { andThen, type Step } from './step.js'
import type { SubCallOrigin } from './tool-presenter.js'

/**
 * The one place that knows the order of a call. Each stage answers once, now or later, and `andThen` goes on with
 * the next; whatever happens, the call settles exactly once and the returned promise never rejects.
 */
export function runCall(
  scope: PipelineScope,
  call: ToolCall,
  signal: AbortSignal | undefined,
  origin?: SubCallOrigin,
  prepared?: PreparedCall,
  approvedBy?: string,
): Promise<ToolResult> {
  const run = openCall(scope, call, signal, origin, prepared, approvedBy)
  let result: Step<ToolResult>
  try {
    result = validate(run)
  } catch (thrown) {
    result = broken(run, thrown)
  }
  if (!(result instanceof Promise)) return Promise.resolve(result)
  return result.then(undefined, (thrown: unknown) => broken(run, thrown))
}

function validate(run: CallRun): Step<ToolResult> {
  // 1. Resolve the tool in the caller's scope; parse, validate and freeze the arguments.
  const refusal = resolveCall(run) ?? notDispatched(run)
  if (refusal !== undefined) return settle(run, refusal)
  // 1b. The definition's own parse: a Standard Schema's validate, the defaults; its value is what everyone sees.
  return andThen(runParseArguments(run), run, 0, askPolicy, broken)
}

function askPolicy(run: CallRun, refusal: CallOutcome | undefined): Step<ToolResult> {
  if (refusal !== undefined) return settle(run, refusal)
  // 2. tools/pre-execute listeners, in order: allow, deny (final) or ask.
  return andThen(runPreExecute(run), run, 0, applyPolicy, broken)
}

function applyPolicy(run: CallRun, denial: CallOutcome | undefined): Step<ToolResult> {
  // 3. Guards: a returned reason denies.
  const refusal = denial ?? runGuards(run)
  if (refusal !== undefined) return settle(run, refusal)
  // 4. The approver, when anything asked.
  return andThen(runApproval(run), run, 0, wrapBody, broken)
}

function wrapBody(run: CallRun, denial: CallOutcome | undefined): Step<ToolResult> {
  const refusal = denial ?? notDispatched(run)
  if (refusal !== undefined) return settle(run, refusal)
  // 5 and 6. tools/execute wrappers around the body; the body's value checked and rendered.
  return andThen(runExecuteWrappers(run), run, 0, postProcess, broken)
}

function postProcess(run: CallRun, outcome: CallOutcome): Step<ToolResult> {
  // 7. tools/post-execute, after cancellation replaced a success: replace, block or add contexts.
  return andThen(runPostExecute(run, afterAbort(run, outcome)), run, 0, finalize, broken)
}

function finalize(run: CallRun, outcome: CallOutcome): Step<ToolResult> {
  // 8. The definition's finalizeContent; then 9, the settlement: the settled record, the tools/result observers.
  return settle(run, runFinalizeContent(run, outcome))
}

/** The call's one settlement. Every path above ends here exactly once; this never throws. */
function settle(run: CallRun, outcome: CallOutcome): Step<ToolResult> {
  try {
    return settleCall(run, outcome)
  } catch (thrown) {
    return settleCall(run, internalFailure(thrown))
  }
}

/** A stage that throws or rejects is a bug in the pipeline itself: the call still settles, as a tool error. */
function broken(run: CallRun, thrown: unknown): Step<ToolResult> {
  return settle(run, internalFailure(thrown))
}

function internalFailure(thrown: unknown): CallOutcome {
  return failure(ToolErrorCode.TOOL_ERROR, failureMessages.internal(thrownMessage(thrown)))
}

function notDispatched(run: CallRun): CallOutcome | undefined {
  if (!isCancelled(run)) return undefined
  return failure(ToolErrorCode.ABORTED_BEFORE_DISPATCH, failureMessages.abortedBeforeDispatch(run.call.name))
}

/** Cancellation only replaces a success; see the precedence table. */
function afterAbort(run: CallRun, outcome: CallOutcome): CallOutcome {
  if (!isCancelled(run)) return outcome
  const kind = outcome.ok ? 'OK' : outcome.error.code
  const replaced = outcomeAfterAbort(kind, run.dispatched ? 'after-dispatch' : 'before-dispatch')
  if (replaced === kind) return outcome
  const message =
    replaced === ToolErrorCode.ABORTED
      ? failureMessages.aborted(run.call.name)
      : failureMessages.abortedBeforeDispatch(run.call.name)
  const replacement = failure(replaced as ToolErrorCode, message)
  return outcome.metadata === undefined ? replacement : { ...replacement, metadata: outcome.metadata }
}
