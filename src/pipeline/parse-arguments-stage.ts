import { ToolErrorCode } from '../errors/error-codes.js'
import type { JsonObject } from '../json-schema/json-value.js'
import type { StandardVerdict } from '../schema/standard-validate.js'
import type { CallOutcome } from './call.js'
import { failure, isPromiseLike, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import { emptyArguments } from './read-arguments.js'
import { formatIssues } from './resolve-call.js'
import type { Step } from './step.js'

/** How long an asynchronous parameter schema may take when the definition sets no `timeoutMs`. */
export const PARSE_TIMEOUT_MS = 30_000

/**
 * Stage 1b: the definition's own parse of the arguments its schema accepted (a Standard Schema's validate, the DSL's
 * defaults); the parsed value replaces the arguments that policy, the approver and the body see. A library that
 * answers with a promise is held to the call's signal and to the definition's `timeoutMs` (else `PARSE_TIMEOUT_MS`).
 * Returns the failure, or undefined when `run.info` holds the parsed arguments.
 */
export function runParseArguments(run: CallRun): Step<CallOutcome | undefined> {
  const parse = run.target!.parse
  if (parse === undefined) return undefined
  let verdict: StandardVerdict | Promise<StandardVerdict>
  try {
    verdict = parse(run.info!.arguments)
  } catch (thrown) {
    verdict = { kind: 'broken', reason: thrownMessage(thrown) }
  }
  if (!isPromiseLike(verdict)) return apply(run, verdict)
  return inTime(run, verdict)
}

function apply(run: CallRun, verdict: StandardVerdict): CallOutcome | undefined {
  const info = run.info!
  if (verdict.kind === 'valid') {
    run.info = Object.freeze({ ...info, arguments: verdict.value as JsonObject })
    return undefined
  }
  if (verdict.kind === 'broken') {
    return failure(ToolErrorCode.TOOL_ERROR, failureMessages.parametersFailed(info.name, verdict.reason))
  }
  const detail = formatIssues(verdict.issues)
  return failure(
    ToolErrorCode.INVALID_ARGUMENTS,
    info.arguments === emptyArguments
      ? failureMessages.emptyArguments(info.name, detail)
      : failureMessages.invalidArguments(info.name, detail),
  )
}

/** The verdict, unless the call is cancelled or the deadline passes first; timer and listener go either way. */
function inTime(run: CallRun, verdict: Promise<StandardVerdict>): Promise<CallOutcome | undefined> {
  const name = run.info!.name
  const timeoutMs = run.target!.definition.timeoutMs ?? PARSE_TIMEOUT_MS
  return new Promise<CallOutcome | undefined>((resolve) => {
    const finish = (outcome: CallOutcome | undefined) => {
      clearTimeout(timer)
      run.signal.removeEventListener('abort', onAbort)
      resolve(outcome)
    }
    const onAbort = () =>
      finish(failure(ToolErrorCode.ABORTED_BEFORE_DISPATCH, failureMessages.abortedBeforeDispatch(name)))
    const timer = setTimeout(
      () => finish(failure(ToolErrorCode.TOOL_TIMEOUT, failureMessages.parametersTimedOut(name, timeoutMs))),
      timeoutMs,
    )
    if (run.cancellable) {
      if (run.signal.aborted) return onAbort()
      run.signal.addEventListener('abort', onAbort, { once: true })
    }
    verdict.then(
      (settled) => finish(apply(run, settled)),
      (thrown: unknown) => finish(apply(run, { kind: 'broken', reason: thrownMessage(thrown) })),
    )
  })
}
