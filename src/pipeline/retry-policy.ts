import { ToolErrorCode } from '../errors/error-codes.js'
import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import type { ToolErrorInfo } from '../errors/tool-error.js'
import type { JsonObject } from '../json-schema/json-value.js'
import type { CallOutcome } from './call.js'
import { declaredMode } from './execution-mode.js'
import type { ExecuteWrapper, NextExecute, WrappedExecution } from './pipeline-events.js'

/** How often `retryPolicy` runs a failed call again, how long it waits first, and which failures it retries. */
export interface RetryPolicyOptions {
  /** How many times a failed call may run again, so at most `retries + 1` attempts. @default 2 */
  readonly retries?: number
  /**
   * The wait in ms before each retry: one number for every retry, or a function of the retry's number (1 for the
   * first). @default 100 ms, doubling with each retry (100, 200, 400, …)
   */
  readonly backoffMs?: number | ((retry: number) => number)
  /**
   * Which failures are retried: their codes, or a test of the error. The default retries a body that threw and one
   * that ran out of time; refusals, invalid arguments or output and cancellations are never worth a second try.
   * @default ['TOOL_ERROR', 'TOOL_TIMEOUT']
   */
  readonly on?: readonly ToolErrorCode[] | ((error: ToolErrorInfo) => boolean)
}

const defaultCodes: readonly ToolErrorCode[] = [ToolErrorCode.TOOL_ERROR, ToolErrorCode.TOOL_TIMEOUT]
/** The longest wait `setTimeout` keeps as asked for. */
const longestWaitMs = 2 ** 31 - 1

/**
 * A `tools/execute` wrapper that runs a failed call again, each attempt logged under the same call id (the call still
 * settles once). It retries only what may safely run twice: a call whose execution mode for its arguments is
 * `parallel` (read-only), or a definition that declares `idempotent: true` or `annotations.idempotentHint: true`.
 * Any other call keeps its first failure, and its result's `metadata.retry` says why it was not retried. The wait
 * before a retry ends at once when the call is cancelled, and the call settles with the last failure.
 *
 * Install it with `runtime.on('tools/execute', retryPolicy(options))`: outside the runtime's own deadline, so each
 * attempt has its own `timeoutMs`.
 */
export function retryPolicy(options: RetryPolicyOptions = {}): ExecuteWrapper {
  const retries = options.retries ?? 2
  if (!Number.isSafeInteger(retries) || retries < 0) {
    throw new InvalidArgumentError('retryPolicy: retries must be a non-negative whole number')
  }
  const waitFor = backoff(options.backoffMs)
  const retryable = retryTest(options.on)
  return (exec, next) =>
    next().then((outcome) => {
      if (outcome.ok || !retryable(outcome.error)) return outcome
      const refusal = notRetried(exec)
      if (refusal !== undefined) return noted(outcome, { attempts: 1, notRetried: refusal })
      return retry({ exec, next, retries, waitFor, retryable }, outcome, 1)
    })
}

interface Retrying {
  readonly exec: WrappedExecution
  readonly next: NextExecute
  readonly retries: number
  readonly waitFor: (retry: number) => number
  readonly retryable: (error: ToolErrorInfo) => boolean
}

async function retry(state: Retrying, failed: CallOutcome, retryNumber: number): Promise<CallOutcome> {
  if (retryNumber > state.retries) return noted(failed, { attempts: retryNumber })
  const waited = await pause(state.waitFor(retryNumber), state.exec.signal)
  if (!waited) return noted(failed, { attempts: retryNumber, stopped: 'cancelled while waiting to retry' })
  const outcome = await state.next()
  if (outcome.ok || !state.retryable(outcome.error)) return noted(outcome, { attempts: retryNumber + 1 })
  return retry(state, outcome, retryNumber + 1)
}

/** Why this call may not run twice, or `undefined` when it may. */
function notRetried(exec: WrappedExecution): string | undefined {
  const { definition } = exec
  if (definition.idempotent === true || definition.annotations?.idempotentHint === true) return undefined
  const args: Readonly<JsonObject> = exec.call?.arguments ?? {}
  if (declaredMode(definition, args) === 'parallel') return undefined
  return `${exec.toolName} is neither parallel for these arguments nor declared idempotent`
}

function noted(outcome: CallOutcome, retry: JsonObject): CallOutcome {
  return { ...outcome, metadata: { ...outcome.metadata, retry } }
}

/** Resolves `true` after `ms`, or `false` at once when `signal` aborts first (or already has). */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false)
  return new Promise((resolve) => {
    const done = (waited: boolean) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', cancelled)
      resolve(waited)
    }
    const cancelled = () => done(false)
    const timer = setTimeout(() => done(true), Math.min(longestWaitMs, ms))
    signal.addEventListener('abort', cancelled, { once: true })
  })
}

function backoff(option: RetryPolicyOptions['backoffMs']): (retry: number) => number {
  if (option === undefined) return (retry) => 100 * 2 ** (retry - 1)
  if (typeof option === 'function') {
    return (retry) => {
      const ms = option(retry)
      return typeof ms === 'number' && ms > 0 ? ms : 0
    }
  }
  if (typeof option !== 'number' || !Number.isFinite(option) || option < 0) {
    throw new InvalidArgumentError('retryPolicy: backoffMs must be a non-negative number of ms or a function')
  }
  return () => option
}

function retryTest(option: RetryPolicyOptions['on']): (error: ToolErrorInfo) => boolean {
  if (option === undefined) return (error) => defaultCodes.includes(error.code)
  if (typeof option === 'function') return option
  const known: readonly unknown[] = Object.values(ToolErrorCode)
  if (!Array.isArray(option) || !option.every((code) => known.includes(code))) {
    throw new InvalidArgumentError('retryPolicy: on must be a list of ToolErrorCode values or a function')
  }
  return (error) => option.includes(error.code)
}
