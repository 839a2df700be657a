import { ToolErrorCode } from '../errors/error-codes.js'
import { approvalMessages } from './approval-messages.js'
import type { CallOutcome } from './call.js'
import { failure, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { andThen, answerOf, type Step } from './step.js'

/**
 * Stage 3b: the definition's own `needsApproval`, with the validated arguments, after the listeners and guards.
 * When it says yes, its reason joins `run.asks` as a listener's `ask` would; when it throws, rejects or answers
 * something other than a boolean, the call is denied (policy fails closed).
 */
export function runNeedsApproval(run: CallRun): Step<CallOutcome | undefined> {
  const needs = run.target!.definition.needsApproval
  if (needs === undefined || needs === false) return undefined
  if (needs === true) return judged(run, true)
  let answer: boolean | Promise<boolean>
  try {
    answer = needs(run.info!.arguments)
  } catch (thrown) {
    return failed(run, thrown)
  }
  return andThen(answerOf(answer), run, 0, judged, failed)
}

function judged(run: CallRun, needed: unknown): CallOutcome | undefined {
  if (needed === false) return undefined
  if (needed !== true) {
    return failure(ToolErrorCode.DENIED, approvalMessages.needsApprovalInvalid(run.info!.name))
  }
  run.asks = [...run.asks, approvalMessages.declared(run.info!.name)]
  return undefined
}

function failed(run: CallRun, thrown: unknown): CallOutcome {
  return failure(ToolErrorCode.DENIED, approvalMessages.needsApprovalFailed(run.info!.name, thrownMessage(thrown)))
}
