import { ToolErrorCode } from '../errors/error-codes.js'
import { reportApproval } from './approval-report.js'
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
  if (run.approvedBy !== undefined) {
    reportApproval(run, 'approved', { decidedBy: run.approvedBy }, performance.now())
    return undefined
  }
  const approve = run.scope.core.approve
  if (approve === undefined) return failure(ToolErrorCode.DENIED, failureMessages.noApprover(info.name))
  const askedAt = performance.now()
  let decision: ApprovalDecision | Promise<ApprovalDecision>
  try {
    decision = approve({ call: info, definition: run.target!.definition, reasons, signal: run.signal })
  } catch (thrown) {
    return approverFailed(run, thrown, askedAt)
  }
  const answer = isPromiseLike(decision) ? untilAborted(Promise.resolve(decision), run.signal) : decision
  return andThen(answer, run, askedAt, fromDecision, approverFailed)
}

const noAnswer = {}

function fromDecision(
  run: CallRun,
  decision: ApprovalDecision | typeof aborted,
  askedAt: number,
): CallOutcome | undefined {
  const name = run.info!.name
  if (decision === aborted) {
    reportApproval(run, 'aborted', noAnswer, askedAt)
    return failure(ToolErrorCode.ABORTED_BEFORE_DISPATCH, failureMessages.abortedBeforeDispatch(name))
  }
  const answer = typeof decision === 'object' && decision !== null ? decision : noAnswer
  if (decision === true || (answer as { approved?: unknown }).approved === true) {
    reportApproval(run, 'approved', answer, askedAt)
    return undefined
  }
  reportApproval(run, 'denied', answer, askedAt)
  if (answer !== noAnswer) {
    const denial = answer as Exclude<ApprovalDecision, boolean>
    return failure(ToolErrorCode.DENIED, denial.reason || failureMessages.notApproved(name), denial.userMessage)
  }
  return failure(ToolErrorCode.DENIED, failureMessages.notApproved(name))
}

function approverFailed(run: CallRun, thrown: unknown, askedAt: number): CallOutcome {
  const message = failureMessages.approverFailed(run.info!.name, thrownMessage(thrown))
  reportApproval(run, 'failed', { reason: message }, askedAt)
  return failure(ToolErrorCode.DENIED, message)
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
