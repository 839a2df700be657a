import { ToolErrorCode } from '../errors/error-codes.js'
import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import { ToolError } from '../errors/tool-error.js'
import type { CallOutcome } from './call.js'
import { failure } from './call-outcome.js'
import { failureMessages } from './failure-messages.js'
import type { ExecuteWrapper } from './pipeline-events.js'

/** The default deadline `timeoutPolicy` gives tools without one, and how long it waits for a body that ignores it. */
export interface TimeoutPolicyOptions {
  /** Deadline for tools that declare no `timeoutMs`; without it such tools run unbounded. */
  readonly defaultMs?: number
  /** How long a body that ignores its aborted signal is waited for before the call settles anyway. Default 1000. */
  readonly graceMs?: number
}

const defaultGraceMs = 1000

/**
 * The calls (by their frozen `CallInfo`) an outer `timeoutPolicy` is timing right now: a policy inside it passes
 * through, so a hand-installed policy and the runtime's own never set two deadlines on one attempt.
 */
const timed = new WeakSet<object>()

/**
 * An execute wrapper that enforces `timeoutMs` (sub-calls included; a definition that declares `ownsDeadline` is
 * left to its own): at the deadline it aborts the body's signal, and the call settles as
 * `TOOL_TIMEOUT` when the body returns, or at deadline plus grace if the body ignores the signal. Whatever the body
 * does after its deadline, the outcome stays `TOOL_TIMEOUT`.
 *
 * The runtime installs one innermost unless created with `enforceTimeouts: false`; install another with
 * `runtime.on('tools/execute', timeoutPolicy(options))` for other options or another place in the onion: where it
 * sets a deadline, policies inside it pass through.
 */
export function timeoutPolicy(options: TimeoutPolicyOptions = {}): ExecuteWrapper {
  const graceMs = options.graceMs ?? defaultGraceMs
  checkMilliseconds('graceMs', graceMs, true)
  if (options.defaultMs !== undefined) checkMilliseconds('defaultMs', options.defaultMs, false)
  return (exec, next) => {
    if (exec.definition.ownsDeadline === true || timed.has(exec.call ?? exec)) return next()
    const timeoutMs = exec.definition.timeoutMs ?? options.defaultMs
    if (timeoutMs === undefined) return next()
    const attempt: object = exec.call ?? exec
    timed.add(attempt)
    const error = { code: ToolErrorCode.TOOL_TIMEOUT, message: failureMessages.timedOut(exec.toolName, timeoutMs) }
    const timedOut = (): CallOutcome => ({ ok: false, error })
    const controller = new AbortController()
    return new Promise<CallOutcome>((resolve) => {
      let graceTimer: ReturnType<typeof setTimeout> | undefined
      const finish = (outcome: CallOutcome) => {
        timed.delete(attempt)
        clearTimeout(deadlineTimer)
        clearTimeout(graceTimer)
        resolve(outcome)
      }
      const deadlineTimer = setTimeout(() => {
        controller.abort(new ToolError(error))
        graceTimer = setTimeout(() => finish(timedOut()), graceMs)
      }, timeoutMs)
      next({ signal: controller.signal }).then(
        (outcome) => finish(controller.signal.aborted ? timedOut() : outcome),
        (thrown: unknown) =>
          finish(failure(ToolErrorCode.WRAPPER_ERROR, failureMessages.wrapperFailed(String(thrown)))),
      )
    })
  }
}

function checkMilliseconds(field: string, value: number, zeroAllowed: boolean): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!zeroAllowed && value === 0)) {
    throw new InvalidArgumentError(
      `timeoutPolicy: ${field} must be a ${zeroAllowed ? 'non-negative' : 'positive'} number of ms`,
    )
  }
}
