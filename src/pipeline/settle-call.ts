import type { CallOutcome, ToolFailure, ToolResult, ToolSuccess } from './call.js'
import { failureContent } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { notifyResultObservers } from './result-observers.js'
import { recordSettled } from './session-recording.js'
import { andThen, type Step } from './step.js'

/**
 * Turns the outcome into the one frozen result of the call, writes its settled record (awaiting a durable log), then
 * lets the `tools/result` observers see it.
 */
export function settleCall(run: CallRun, outcome: CallOutcome): Step<ToolResult> {
  const result = toResult(run, outcome)
  run.result = result
  // The recorder never rejects: a log that fails is reported there, and the observers still see the result.
  const logged = recordSettled(run, result)
  // Without a durable log there is nothing to wait for: announcing at once is a bench row's worth of time.
  if (logged === undefined) return announce(run)
  return andThen(logged, run, 0, announce, announce)
}

function announce(run: CallRun): ToolResult {
  const result = run.result!
  notifyResultObservers(run, result)
  return result
}

type Writable<Result> = { -readonly [Field in keyof Result]: Result[Field] }

function toResult(run: CallRun, outcome: CallOutcome): ToolResult {
  const { id, name } = run.call
  const durationMs = performance.now() - run.startedAt
  const result: Writable<ToolSuccess> | Writable<ToolFailure> = outcome.ok
    ? { id, name, ok: true, content: frozenCopy(outcome.content), value: outcome.value, durationMs }
    : {
        id,
        name,
        ok: false,
        content: failureContent(outcome.error),
        error: Object.freeze({ ...outcome.error }),
        durationMs,
      }
  if (outcome.contexts !== undefined) result.contexts = frozenCopy(outcome.contexts)
  if (outcome.metadata !== undefined) result.metadata = outcome.metadata
  return Object.freeze(result)
}

/** A list the pipeline froze when it made it is its own already; any other is copied, so the caller's stays theirs. */
function frozenCopy<Item>(items: readonly Item[]): readonly Item[] {
  return Object.isFrozen(items) ? items : Object.freeze([...items])
}
