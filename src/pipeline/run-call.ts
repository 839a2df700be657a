import { ToolErrorCode } from '../errors/error-codes.js'
import { runApproval } from './approval-stage.js'
import type { ToolCall, ToolResult } from './call.js'
import { failure, isPromiseLike, thrownMessage } from './call-outcome.js'
import { type CallRun, isCancelled, openCall, type PipelineScope, type SubCallOrigin } from './call-run.js'
import { runExecuteWrappers } from './execute-wrappers.js'
import { failureMessages } from './failure-messages.js'
import { runFinalizeContent } from './finalize-content-stage.js'
import { runGuards } from './guard-stage.js'
import { outcomeAfterAbort } from './outcome-precedence.js'
import type { CallOutcome } from './pipeline-events.js'
import { runPostExecute } from './post-execute-stage.js'
import { type AskReasons, runPreExecute } from './pre-execute-stage.js'
import { resolveCall } from './resolve-call.js'
import { settleCall } from './settle-call.js'

type Step<Value> = Value | Promise<Value>

/**
 * The one place that knows the order of a call. Each stage may answer synchronously, and the next stage then runs at
 * once; only a stage that is really pending costs a promise. Whatever happens, the call settles exactly once and the
 * returned promise never rejects.
 */
export function runCall(
  scope: PipelineScope,
  call: ToolCall,
  signal: AbortSignal | undefined,
  origin?: SubCallOrigin,
): Promise<ToolResult> {
  const run = openCall(scope, call, signal, origin)
  let result: Step<ToolResult>
  try {
    result = resolveAndDecide(run)
  } catch (thrown) {
    result = settle(run, internalFailure(thrown))
  }
  return isPromiseLike(result) ? result : Promise.resolve(result)
}

function resolveAndDecide(run: CallRun): Step<ToolResult> {
  // 1. Resolve the tool in the caller's scope; parse, validate and freeze the arguments.
  const invalid = resolveCall(run)
  if (invalid !== undefined) return settle(run, invalid)
  if (isCancelled(run)) return settle(run, notDispatched(run))
  // 2. tools/pre-execute listeners, in order: allow, deny (final) or ask.
  return next(runPreExecute(run), run, guardAndApprove)
}

function guardAndApprove(run: CallRun, verdict: CallOutcome | AskReasons): Step<ToolResult> {
  if (!Array.isArray(verdict)) return settle(run, verdict as CallOutcome)
  // 3. Guards: a returned reason denies.
  const guarded = runGuards(run)
  if (guarded !== undefined) return settle(run, guarded)
  // 4. The approver, when anything asked.
  return next(runApproval(run, verdict), run, dispatch)
}

function dispatch(run: CallRun, refusal: CallOutcome | undefined): Step<ToolResult> {
  if (refusal !== undefined) return settle(run, refusal)
  if (isCancelled(run)) return settle(run, notDispatched(run))
  // 5 and 6. tools/execute wrappers around the body; the body's value checked and rendered.
  return next(runExecuteWrappers(run), run, inspect)
}

function inspect(run: CallRun, outcome: CallOutcome): Step<ToolResult> {
  const checked = isCancelled(run) ? afterAbort(run, outcome) : outcome
  // 7. tools/post-execute: replace, block or add contexts.
  return next(runPostExecute(run, checked), run, finalize)
}

function finalize(run: CallRun, outcome: CallOutcome): Step<ToolResult> {
  // 8. The definition's finalizeContent.
  return settle(run, runFinalizeContent(run, outcome))
}

/**
 * 9. The call's one settlement: its settled record, then the tools/result observers. Every path above ends here
 * exactly once; this never throws.
 */
function settle(run: CallRun, outcome: CallOutcome): Step<ToolResult> {
  try {
    return settleCall(run, outcome)
  } catch (thrown) {
    return settleCall(run, internalFailure(thrown))
  }
}

/**
 * Runs the next stage now when the previous one answered synchronously, else when it settles. A stage that throws
 * or a pending step that rejects settles the call as an internal failure.
 */
function next<Value>(
  value: Step<Value>,
  run: CallRun,
  stage: (run: CallRun, value: Value) => Step<ToolResult>,
): Step<ToolResult> {
  if (!isPromiseLike(value)) return stage(run, value)
  return Promise.resolve(value).then(
    (settled) => {
      try {
        return stage(run, settled)
      } catch (thrown) {
        return settle(run, internalFailure(thrown))
      }
    },
    (thrown: unknown) => settle(run, internalFailure(thrown)),
  )
}

function notDispatched(run: CallRun): CallOutcome {
  return failure(ToolErrorCode.ABORTED_BEFORE_DISPATCH, failureMessages.abortedBeforeDispatch(run.call.name))
}

/** A bug in the pipeline itself still settles the call, as a tool error that says so. */
function internalFailure(thrown: unknown): CallOutcome {
  return failure(ToolErrorCode.TOOL_ERROR, failureMessages.internal(thrownMessage(thrown)))
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
  const replacement = failure(replaced as ToolErrorCode, message)
  return outcome.metadata === undefined ? replacement : { ...replacement, metadata: outcome.metadata }
}
