import { ToolErrorCode } from '../errors/error-codes.js'
import type { CallOutcome } from './call.js'
import { failure, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import type { PreExecuteDecision, PreExecuteEvent } from './pipeline-events.js'
import { andThen, answerOf, type Step } from './step.js'

const event = 'tools/pre-execute'

/**
 * Stage 2: listeners in order; the reasons of those that ask gather in `run.asks` for the approver. The first deny
 * is final and stops the waterfall, so nothing after it can turn the call back into permission; a listener that
 * throws or answers nonsense denies too (policy fails closed).
 */
export function runPreExecute(run: CallRun): Step<CallOutcome | undefined> {
  if (run.listeners.preExecute.length === 0) return undefined
  return ask(run, { call: run.info!, definition: run.target!.definition, signal: run.signal }, 0)
}

/** Where a waterfall waiting on a pending decision goes on. Made only then: a synchronous waterfall needs none. */
interface Paused {
  readonly run: CallRun
  readonly payload: PreExecuteEvent
}

function ask(run: CallRun, payload: PreExecuteEvent, from: number): Step<CallOutcome | undefined> {
  const listeners = run.listeners.preExecute
  for (let index = from; index < listeners.length; index++) {
    let decision: ReturnType<(typeof listeners)[number]>
    try {
      decision = listeners[index]!(payload)
    } catch (thrown) {
      return listenerFailure(undefined, thrown)
    }
    // Nothing to apply: straight on to the next listener (the common answer).
    if (decision === undefined) continue
    const answer = answerOf(decision)
    if (answer instanceof Promise) return andThen(answer, { run, payload }, index, decided, listenerFailure)
    const denial = apply(run, answer)
    if (denial !== undefined) return denial
  }
  return undefined
}

function decided(
  paused: Paused,
  decision: PreExecuteDecision | undefined,
  index: number,
): Step<CallOutcome | undefined> {
  const denial = apply(paused.run, decision)
  return denial === undefined ? ask(paused.run, paused.payload, index + 1) : denial
}

function apply(run: CallRun, decision: PreExecuteDecision | undefined): CallOutcome | undefined {
  if (decision === undefined || decision === null) return undefined
  switch (decision.action) {
    case 'allow':
      return undefined
    case 'ask':
      if (typeof decision.reason !== 'string') return invalid()
      run.asks = [...run.asks, decision.reason]
      return undefined
    case 'deny': {
      if (typeof decision.reason !== 'string') return invalid()
      return failure(decision.error?.code ?? ToolErrorCode.DENIED, decision.reason, decision.error?.userMessage)
    }
    default:
      return invalid()
  }
}

function listenerFailure(_paused: Paused | undefined, thrown: unknown): CallOutcome {
  return failure(ToolErrorCode.LISTENER_ERROR, failureMessages.listenerFailed(event, thrownMessage(thrown)))
}

function invalid(): CallOutcome {
  return failure(ToolErrorCode.LISTENER_ERROR, failureMessages.listenerInvalidDecision(event))
}
