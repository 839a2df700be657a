import { ToolErrorCode } from '../errors/error-codes.js'
import type { CallOutcome, ToolContext } from './call.js'
import { failure, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import type { PostExecuteDecision, PostExecuteEvent } from './pipeline-events.js'
import { andThen, answerOf, type Step } from './step.js'

const event = 'tools/post-execute'

/**
 * Stage 7: listeners in order see the outcome so far. They may replace a success's content or value, block it with
 * feedback (a `BLOCKED` failure, final), or append contexts. A listener that throws fails the call.
 */
export function runPostExecute(run: CallRun, outcome: CallOutcome): Step<CallOutcome> {
  if (run.listeners.postExecute.length === 0) return outcome
  return offer(run, { call: run.info!, definition: run.target!.definition, outcome }, 0)
}

/** Where a waterfall waiting on a pending decision goes on. Made only then: a synchronous waterfall needs none. */
interface Paused {
  readonly run: CallRun
  readonly payload: PostExecuteEvent
}

/** `payload` is rebuilt only when a listener changed the outcome. */
function offer(run: CallRun, payload: PostExecuteEvent, from: number): Step<CallOutcome> {
  const listeners = run.listeners.postExecute
  let current = payload
  for (let index = from; index < listeners.length; index++) {
    let decision: ReturnType<(typeof listeners)[number]>
    try {
      decision = listeners[index]!(current)
    } catch (thrown) {
      return listenerFailure(current, thrown)
    }
    // Nothing to apply: straight on to the next listener (the common answer).
    if (decision === undefined) continue
    const answer = answerOf(decision)
    if (answer instanceof Promise) return andThen(answer, { run, payload: current }, index, decided, paused)
    const applied = apply(current, answer)
    if (applied === undefined) continue
    if (applied.final) return applied.outcome
    current = { ...current, outcome: applied.outcome }
  }
  return current.outcome
}

function decided(paused: Paused, decision: PostExecuteDecision | undefined, index: number): Step<CallOutcome> {
  const applied = apply(paused.payload, decision)
  if (applied?.final === true) return applied.outcome
  const payload = applied === undefined ? paused.payload : { ...paused.payload, outcome: applied.outcome }
  return offer(paused.run, payload, index + 1)
}

/** What a decision makes of the outcome so far: nothing (undefined), a new outcome, or a final one. */
function apply(
  payload: PostExecuteEvent,
  decision: PostExecuteDecision | undefined,
): { readonly final: boolean; readonly outcome: CallOutcome } | undefined {
  if (decision === undefined || decision === null) return undefined
  const current = payload.outcome
  if (typeof decision !== 'object') {
    return {
      final: true,
      outcome: failure(ToolErrorCode.LISTENER_ERROR, failureMessages.listenerInvalidDecision(event)),
    }
  }
  const contexts = appendContexts(current.contexts, decision.contexts)
  const carried = { ...(contexts === undefined ? {} : { contexts }), ...metadataOf(current) }
  if (typeof decision.block === 'string') {
    return { final: true, outcome: { ...failure(ToolErrorCode.BLOCKED, decision.block), ...carried } }
  }
  const outcome: CallOutcome = current.ok
    ? {
        ok: true,
        value: decision.value === undefined ? current.value : decision.value,
        content: decision.content === undefined ? current.content : decision.content,
        ...carried,
      }
    : { ...current, ...carried }
  return { final: false, outcome }
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

function paused(state: Paused, thrown: unknown): CallOutcome {
  return listenerFailure(state.payload, thrown)
}

function listenerFailure(payload: PostExecuteEvent, thrown: unknown): CallOutcome {
  return {
    ...failure(ToolErrorCode.LISTENER_ERROR, failureMessages.listenerFailed(event, thrownMessage(thrown))),
    ...metadataOf(payload.outcome),
  }
}
