import { ToolErrorCode } from '../errors/error-codes.js'
import type { CallOutcome, ToolContext } from './call.js'
import { failure, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import type { PostExecuteDecision, PostExecuteEvent } from './pipeline-events.js'
import { andThen, type Step } from './step.js'

const event = 'tools/post-execute'

/**
 * Stage 7: listeners in order see the outcome so far. They may replace a success's content or value, block it with
 * feedback (a `BLOCKED` failure, final), or append contexts. A listener that throws fails the call.
 */
export function runPostExecute(run: CallRun, outcome: CallOutcome): Step<CallOutcome> {
  if (run.listeners.postExecute.length === 0) return outcome
  return offer({ run, payload: { call: run.info!, definition: run.target!.definition, outcome } }, 0)
}

interface Waterfall {
  readonly run: CallRun
  /** Rebuilt only when a listener changed the outcome. */
  payload: PostExecuteEvent
}

function offer(waterfall: Waterfall, index: number): Step<CallOutcome> {
  const listeners = waterfall.run.listeners.postExecute
  if (index === listeners.length) return waterfall.payload.outcome
  let decision: ReturnType<(typeof listeners)[number]>
  try {
    decision = listeners[index]!(waterfall.payload)
  } catch (thrown) {
    return listenerFailure(waterfall, thrown)
  }
  // Nothing to apply: straight on to the next listener (the common answer, and a bench row pays for skipping here).
  if (decision === undefined) return offer(waterfall, index + 1)
  return andThen(decision, waterfall, index, decided, listenerFailure)
}

function decided(waterfall: Waterfall, decision: PostExecuteDecision | undefined, index: number): Step<CallOutcome> {
  if (decision === undefined || decision === null) return offer(waterfall, index + 1)
  const current = waterfall.payload.outcome
  if (typeof decision !== 'object') {
    return failure(ToolErrorCode.LISTENER_ERROR, failureMessages.listenerInvalidDecision(event))
  }
  const contexts = appendContexts(current.contexts, decision.contexts)
  const carried = { ...(contexts === undefined ? {} : { contexts }), ...metadataOf(current) }
  if (typeof decision.block === 'string') return { ...failure(ToolErrorCode.BLOCKED, decision.block), ...carried }
  const outcome: CallOutcome = current.ok
    ? {
        ok: true,
        value: decision.value === undefined ? current.value : decision.value,
        content: decision.content === undefined ? current.content : decision.content,
        ...carried,
      }
    : { ...current, ...carried }
  waterfall.payload = { ...waterfall.payload, outcome }
  return offer(waterfall, index + 1)
}

function appendContexts(
  existing: readonly ToolContext[] | undefined,
  added: readonly ToolContext[] | undefined,
): readonly ToolContext[] | undefined {
  if (added === undefined || added.length === 0) return existing
  return existing === undefined ? [...added] : [...existing, ...added]
}

function metadataOf(outcome: CallOutcome) {
  return outcome.metadata === undefined ? {} : { metadata: outcome.metadata }
}

function listenerFailure(waterfall: Waterfall, thrown: unknown): CallOutcome {
  return {
    ...failure(ToolErrorCode.LISTENER_ERROR, failureMessages.listenerFailed(event, thrownMessage(thrown))),
    ...metadataOf(waterfall.payload.outcome),
  }
}
