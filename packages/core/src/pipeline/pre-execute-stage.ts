import { ToolErrorCode } from '../errors/error-codes.js'
import type { CallOutcome } from './call.js'
import { failure, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import type { PreExecuteDecision, PreExecuteEvent } from './pipeline-events.js'
import { andThen, type Step } from './step.js'

const event = 'tools/pre-execute'

/**
 * Stage 2: listeners in order; the reasons of those that ask gather in `run.asks` for the approver. The first deny
 * is final and stops the waterfall, so nothing after it can turn the call back into permission; a listener that
 * throws or answers nonsense denies too (policy fails closed).
 */
export function runPreExecute(run: CallRun): Step<CallOutcome | undefined> {
  if (run.listeners.preExecute.length === 0) return targetAsk(run)
  const payload: PreExecuteEvent = { call: run.info!, definition: run.target!.definition, signal: run.signal }
  return ask({ run, payload }, 0)
}

interface Waterfall {
  readonly run: CallRun
  readonly payload: PreExecuteEvent
}

function ask(waterfall: Waterfall, index: number): Step<CallOutcome | undefined> {
  const listeners = waterfall.run.listeners.preExecute
  if (index === listeners.length) return targetAsk(waterfall.run)
  let decision: ReturnType<(typeof listeners)[number]>
  try {
    decision = listeners[index]!(waterfall.payload)
  } catch (thrown) {
    return listenerFailure(waterfall, thrown)
  }
  // Nothing to apply: straight on to the next listener (the common answer, and a bench row pays for skipping here).
  if (decision === undefined) return ask(waterfall, index + 1)
  return andThen(decision, waterfall, index, decided, listenerFailure)
}

function decided(
  waterfall: Waterfall,
  decision: PreExecuteDecision | undefined,
  index: number,
): Step<CallOutcome | undefined> {
  const denial = apply(waterfall.run, decision)
  return denial === undefined ? ask(waterfall, index + 1) : denial
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

function listenerFailure(_waterfall: Waterfall, thrown: unknown): CallOutcome {
  return failure(ToolErrorCode.LISTENER_ERROR, failureMessages.listenerFailed(event, thrownMessage(thrown)))
}

function invalid(): CallOutcome {
  return failure(ToolErrorCode.LISTENER_ERROR, failureMessages.listenerInvalidDecision(event))
}

/** A target may require approval by itself (`run_code` escalation); its reason comes after the listeners'. */
function targetAsk(run: CallRun): undefined {
  const reason = run.target!.askReason?.(run.info!.arguments)
  if (reason !== undefined) run.asks = [...run.asks, reason]
  return undefined
}
