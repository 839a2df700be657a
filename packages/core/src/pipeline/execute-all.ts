import type { DeferredToolResult, ToolCall, ToolResult } from './call.js'
import type { PipelineScope, PreparedCall } from './call-run.js'
import { executionModeOf } from './execution-mode.js'
import { emptyArguments } from './read-arguments.js'
import { prepareCall, prepareSubCall } from './resolve-call.js'
import { runCall } from './run-call.js'
import type { Scheduler } from './scheduler.js'
import { createScheduler } from './scheduler.js'
import type { SubCall, SubCallOrigin, SubCalls } from './tool-presenter.js'

/**
 * Runs a batch through one scheduler: each call keeps its own result and its own failure, and is cancelled only by
 * the signal it was given. Results come back in call order.
 */
export function executeAll(
  scope: PipelineScope,
  calls: readonly ToolCall[],
  scheduler: Scheduler,
  signal: AbortSignal | undefined,
): Promise<DeferredToolResult[]> {
  return Promise.all(
    calls.map((call) =>
      schedule(
        scope,
        call,
        safely(() => prepareCall(scope, call)),
        scheduler,
        signal,
      ),
    ),
  )
}

/** The sub-calls of one scope: each run gets a scheduler of its own, and each call is prepared once, as it arrives. */
export function subCallsOf(scope: PipelineScope): SubCalls {
  return {
    open(origin: SubCallOrigin, signal: AbortSignal) {
      const scheduler = createScheduler(scope.core.maxParallelSubCalls)
      return (subCall: SubCall) => {
        // Its arguments are read once, as a value, by `prepareSubCall`; this record never is.
        const call: ToolCall = { id: String(subCall.id), name: String(subCall.name), arguments: emptyArguments }
        const prepared = safely(() => prepareSubCall(scope, call.name, subCall.arguments, subCall.binding))
        const own = subCall.signal
        // A sub-call is never deferred (its program waits for the approver in memory), so it always settles.
        return schedule(
          scope,
          call,
          prepared,
          scheduler,
          own === undefined ? signal : AbortSignal.any([signal, own]),
          origin,
        ) as Promise<ToolResult>
      }
    },
  }
}

function schedule(
  scope: PipelineScope,
  call: ToolCall,
  prepared: PreparedCall | undefined,
  scheduler: Scheduler,
  signal: AbortSignal | undefined,
  origin?: SubCallOrigin,
): Promise<DeferredToolResult> {
  const mode = prepared === undefined ? 'exclusive' : (safely(() => executionModeOf(prepared)) ?? 'exclusive')
  return scheduler.schedule(mode, () => runCall(scope, call, signal, origin, prepared))
}

/**
 * Preparing and classifying must not break the batch: whatever goes wrong there, the call runs alone and settles on
 * its own (a call left unprepared meets the same fault in its resolve stage, and settles with it).
 */
function safely<Value>(work: () => Value): Value | undefined {
  try {
    return work()
  } catch {
    return undefined
  }
}
