import type { ToolResult } from './call.js'
import { failureContent, isPromiseLike } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import type { CallOutcome } from './pipeline-events.js'
import { notifyResultObservers } from './result-observers.js'
import { recordSettled } from './session-recording.js'

/**
 * Turns the outcome into the one frozen result of the call, writes its settled record (awaiting a durable log), then
 * lets the `tools/result` observers see it.
 */
export function settleCall(run: CallRun, outcome: CallOutcome): ToolResult | Promise<ToolResult> {
  const result = toResult(run, outcome)
  const logged = recordSettled(run, result)
  if (isPromiseLike(logged)) {
    return Promise.resolve(logged).then(() => {
      notifyResultObservers(run, result)
      return result
    })
  }
  notifyResultObservers(run, result)
  return result
}

function toResult(run: CallRun, outcome: CallOutcome): ToolResult {
  const { id, name } = run.call
  const durationMs = performance.now() - run.startedAt
  if (outcome.contexts === undefined && outcome.metadata === undefined) {
    return outcome.ok
      ? Object.freeze({ id, name, ok: true, content: Object.freeze(outcome.content), value: outcome.value, durationMs })
      : Object.freeze({
          id,
          name,
          ok: false,
          content: failureContent(outcome.error),
          error: Object.freeze({ ...outcome.error }),
          durationMs,
        })
  }
  const contexts = outcome.contexts === undefined ? undefined : Object.freeze([...outcome.contexts])
  const result: ToolResult = outcome.ok
    ? {
        id,
        name,
        ok: true,
        content: Object.freeze([...outcome.content]),
        value: outcome.value,
        ...(contexts === undefined ? {} : { contexts }),
        durationMs,
        ...(outcome.metadata === undefined ? {} : { metadata: outcome.metadata }),
      }
    : {
        id,
        name,
        ok: false,
        content: failureContent(outcome.error),
        error: Object.freeze({ ...outcome.error }),
        ...(contexts === undefined ? {} : { contexts }),
        durationMs,
        ...(outcome.metadata === undefined ? {} : { metadata: outcome.metadata }),
      }
  return Object.freeze(result)
}
