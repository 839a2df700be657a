import { ToolErrorCode } from '../errors/error-codes.js'
import { isToolError } from '../errors/tool-error.js'
import { failure, isPromiseLike, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import { fuseSignals } from './fuse-signals.js'
import type { CallOutcome, ExecuteWrapper, NextExecute, WrappedExecution } from './pipeline-events.js'
import { runBody } from './run-body.js'

/**
 * Stage 5: `tools/execute` wrappers around the body as an onion, lowest order outermost. A wrapper may replace the
 * signal for the layers inside it; the caller's signal is fused back in, so cancelling the call always reaches the
 * body. Calling `next` twice, throwing, or returning no outcome makes the call a `WRAPPER_ERROR`.
 */
export function runExecuteWrappers(run: CallRun): CallOutcome | Promise<CallOutcome> {
  const wrappers = run.listeners.execute
  if (wrappers.length === 0) return runBody(run, run.signal)
  const info = run.info!
  const exec: WrappedExecution = {
    signal: run.signal,
    callId: info.id,
    toolName: info.name,
    agentId: info.agentId,
    correlationId: info.correlationId,
    call: info,
    definition: run.target!.definition,
  }
  return invoke(run, wrappers, 0, exec)
}

function invoke(
  run: CallRun,
  wrappers: readonly ExecuteWrapper[],
  index: number,
  exec: WrappedExecution,
): Promise<CallOutcome> {
  if (index === wrappers.length) return Promise.resolve(runBody(run, exec.signal))
  let calls = 0
  const next: NextExecute = (override) => {
    calls++
    if (calls > 1) return Promise.reject(new Error(failureMessages.nextTwice()))
    const replacement = override?.signal
    const inner =
      replacement === undefined || replacement === exec.signal
        ? exec
        : { ...exec, signal: fuseSignals(replacement, run.signal) }
    return invoke(run, wrappers, index + 1, inner)
  }
  let returned: CallOutcome | Promise<CallOutcome>
  try {
    returned = wrappers[index]!(exec, next)
  } catch (thrown) {
    return Promise.resolve(wrapperFailure(thrown, calls))
  }
  const check = (outcome: CallOutcome): CallOutcome =>
    calls > 1 ? failure(ToolErrorCode.WRAPPER_ERROR, failureMessages.nextTwice()) : checkOutcome(outcome)
  if (!isPromiseLike(returned)) return Promise.resolve(check(returned))
  return Promise.resolve(returned).then(check, (thrown: unknown) => wrapperFailure(thrown, calls))
}

function wrapperFailure(thrown: unknown, calls: number): CallOutcome {
  if (calls > 1) return failure(ToolErrorCode.WRAPPER_ERROR, failureMessages.nextTwice())
  if (isToolError(thrown)) return { ok: false, error: thrown.toInfo() }
  return failure(ToolErrorCode.WRAPPER_ERROR, failureMessages.wrapperFailed(thrownMessage(thrown)))
}

function checkOutcome(outcome: unknown): CallOutcome {
  if (typeof outcome !== 'object' || outcome === null) {
    return failure(ToolErrorCode.WRAPPER_ERROR, failureMessages.wrapperNoOutcome())
  }
  const candidate = outcome as CallOutcome
  if (candidate.ok === true && Array.isArray(candidate.content)) return candidate
  if (candidate.ok === false && typeof candidate.error === 'object' && candidate.error !== null) return candidate
  return failure(ToolErrorCode.WRAPPER_ERROR, failureMessages.wrapperNoOutcome())
}
