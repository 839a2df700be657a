import { ToolErrorCode } from '../errors/error-codes.js'
import { failure, isPromiseLike, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import type { CallOutcome, PreExecuteDecision, PreExecuteEvent } from './pipeline-events.js'

/** The reasons listeners gave for asking; empty when every listener allowed. */
export type AskReasons = readonly string[]

const noReasons: AskReasons = Object.freeze([])
const event = 'tools/pre-execute'

/**
 * Stage 2: listeners in order. The first deny is final and stops the waterfall, so nothing after it can turn the
 * call back into permission; a listener that throws or answers nonsense denies too (policy fails closed).
 */
export function runPreExecute(run: CallRun): CallOutcome | AskReasons | Promise<CallOutcome | AskReasons> {
  const listeners = run.listeners.preExecute
  if (listeners.length === 0) return targetAsk(run, noReasons)
  const payload: PreExecuteEvent = { call: run.info!, definition: run.target!.definition, signal: run.signal }
  return continueFrom(run, payload, 0, noReasons)
}

function continueFrom(
  run: CallRun,
  payload: PreExecuteEvent,
  start: number,
  reasons: AskReasons,
): CallOutcome | AskReasons | Promise<CallOutcome | AskReasons> {
  const listeners = run.listeners.preExecute
  let asks = reasons
  for (let index = start; index < listeners.length; index++) {
    let decision: ReturnType<(typeof listeners)[number]>
    try {
      decision = listeners[index]!(payload)
    } catch (thrown) {
      return failure(ToolErrorCode.LISTENER_ERROR, failureMessages.listenerFailed(event, thrownMessage(thrown)))
    }
    if (isPromiseLike(decision)) {
      const next = index + 1
      const current = asks
      return Promise.resolve(decision).then(
        (settled) => {
          const applied = apply(settled, current)
          return Array.isArray(applied) ? continueFrom(run, payload, next, applied) : applied
        },
        (thrown: unknown) =>
          failure(ToolErrorCode.LISTENER_ERROR, failureMessages.listenerFailed(event, thrownMessage(thrown))),
      )
    }
    const applied = apply(decision, asks)
    if (!Array.isArray(applied)) return applied as CallOutcome
    asks = applied
  }
  return targetAsk(run, asks)
}

function apply(decision: PreExecuteDecision | undefined, asks: AskReasons): CallOutcome | AskReasons {
  if (decision === undefined || decision === null) return asks
  switch (decision.action) {
    case 'allow':
      return asks
    case 'ask':
      return typeof decision.reason === 'string' ? [...asks, decision.reason] : invalid()
    case 'deny': {
      if (typeof decision.reason !== 'string') return invalid()
      return failure(decision.error?.code ?? ToolErrorCode.DENIED, decision.reason, decision.error?.userMessage)
    }
    default:
      return invalid()
  }
}

function invalid(): CallOutcome {
  return failure(ToolErrorCode.LISTENER_ERROR, failureMessages.listenerInvalidDecision(event))
}

/** A target may require approval by itself (`run_code` escalation); its reason comes after the listeners'. */
function targetAsk(run: CallRun, asks: AskReasons): AskReasons {
  const reason = run.target!.askReason?.(run.info!.arguments)
  return reason === undefined ? asks : [...asks, reason]
}
