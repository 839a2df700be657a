import { ToolErrorCode } from '../errors/error-codes.js'
import type { ToolContext } from './call.js'
import { failure, isPromiseLike, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import type { CallOutcome, PostExecuteDecision, PostExecuteEvent } from './pipeline-events.js'

const event = 'tools/post-execute'

/**
 * Stage 7: listeners in order see the outcome so far. They may replace a success's content or value, block it with
 * feedback (a `BLOCKED` failure, final), or append contexts. A listener that throws fails the call.
 */
export function runPostExecute(run: CallRun, outcome: CallOutcome): CallOutcome | Promise<CallOutcome> {
  if (run.listeners.postExecute.length === 0) return outcome
  return continueFrom(run, outcome, 0)
}

function continueFrom(run: CallRun, start: CallOutcome, from: number): CallOutcome | Promise<CallOutcome> {
  const listeners = run.listeners.postExecute
  const call = run.info!
  const definition = run.target!.definition
  let outcome = start
  let payload: PostExecuteEvent = { call, definition, outcome }
  for (let index = from; index < listeners.length; index++) {
    if (payload.outcome !== outcome) payload = { call, definition, outcome }
    let decision: ReturnType<(typeof listeners)[number]>
    try {
      decision = listeners[index]!(payload)
    } catch (thrown) {
      return listenerFailure(outcome, thrown)
    }
    if (decision === undefined) continue
    if (isPromiseLike(decision)) {
      const current = outcome
      const next = index + 1
      return Promise.resolve(decision).then(
        (settled) => {
          const applied = apply(current, settled)
          return applied.final ? applied.outcome : continueFrom(run, applied.outcome, next)
        },
        (thrown: unknown) => listenerFailure(current, thrown),
      )
    }
    const applied = apply(outcome, decision)
    if (applied.final) return applied.outcome
    outcome = applied.outcome
  }
  return outcome
}

function apply(
  outcome: CallOutcome,
  decision: PostExecuteDecision | undefined,
): { final: boolean; outcome: CallOutcome } {
  if (decision === undefined || decision === null) return { final: false, outcome }
  if (typeof decision !== 'object') {
    return {
      final: true,
      outcome: failure(ToolErrorCode.LISTENER_ERROR, failureMessages.listenerInvalidDecision(event)),
    }
  }
  const contexts = appendContexts(outcome.contexts, decision.contexts)
  const carried = { ...(contexts === undefined ? {} : { contexts }), ...metadataOf(outcome) }
  if (typeof decision.block === 'string') {
    return { final: true, outcome: { ...failure(ToolErrorCode.BLOCKED, decision.block), ...carried } }
  }
  if (!outcome.ok) return { final: false, outcome: { ...outcome, ...carried } }
  return {
    final: false,
    outcome: {
      ok: true,
      value: decision.value === undefined ? outcome.value : decision.value,
      content: decision.content === undefined ? outcome.content : decision.content,
      ...carried,
    },
  }
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

function listenerFailure(outcome: CallOutcome, thrown: unknown): CallOutcome {
  return {
    ...failure(ToolErrorCode.LISTENER_ERROR, failureMessages.listenerFailed(event, thrownMessage(thrown))),
    ...metadataOf(outcome),
  }
}
