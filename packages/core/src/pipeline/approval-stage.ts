import { ToolErrorCode } from '../errors/error-codes.js'
import type { CallOutcome } from './call.js'
import { failure, isPromiseLike, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import type { ApprovalDecision } from './pipeline-events.js'
import { andThen, type Step } from './step.js'

/**
 * Stage 4: when something asked (`run.asks`) and nothing denied, the approver decides. No approver, an approver
 * that throws, or a caller that cancels while waiting all leave the call undispatched.
 */
export function runApproval(run: CallRun): Step<CallOutcome | undefined> {
  const reasons = run.asks
  if (reasons.length === 0) return undefined
  const info = run.info!
  const approve = run.scope.core.approve
  if (approve === undefined) return failure(ToolErrorCode.DENIED, failureMessages.noApprover(info.name))
  let decision: ApprovalDecision | Promise<ApprovalDecision>
  try {
    decision = approve({ call: info, definition: run.target!.definition, reasons, signal: run.signal })
  } catch (thrown) {
    return approverFailed(run, thrown)
  }
  const answer = isPromiseLike(decision) ? untilAborted(Promise.resolve(decision), run.signal) : decision
  return andThen(answer, run, 0, fromDecision, approverFailed)
}

function fromDecision(run: CallRun, decision: ApprovalDecision | typeof aborted): CallOutcome | undefined {
  const name = run.info!.name
  if (decision === aborted) {
    return failure(ToolErrorCode.ABORTED_BEFORE_DISPATCH, failureMessages.abortedBeforeDispatch(name))
  }
  if (decision === true) return undefined
  if (typeof decision === 'object' && decision !== null) {
    if (decision.approved === true) return undefined
    return failure(ToolErrorCode.DENIED, decision.reason || failureMessages.notApproved(name), decision.userMessage)
  }
  return failure(ToolErrorCode.DENIED, failureMessages.notApproved(name))
}

function approverFailed(run: CallRun, thrown: unknown): CallOutcome {
  return failure(ToolErrorCode.DENIED, failureMessages.approverFailed(run.info!.name, thrownMessage(thrown)))
}

const aborted = Symbol('aborted')

/** Settles with the promise, or with `aborted` as soon as the signal aborts, whichever comes first. */
export function untilAborted<Value>(promise: Promise<Value>, signal: AbortSignal): Promise<Value | typeof aborted> {
  if (signal.aborted) {
    promise.catch(() => {})
    return Promise.resolve(aborted)
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(aborted)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
