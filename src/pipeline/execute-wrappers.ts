import { ToolErrorCode } from '../errors/error-codes.js'
import { isToolError } from '../errors/tool-error.js'
import type { CallOutcome } from './call.js'
import { failure, thrownMessage } from './call-outcome.js'
import { type CallRun, noteOn } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import { fuseSignals } from './fuse-signals.js'
import type { ExecuteWrapper, NextExecute, WrappedExecution } from './pipeline-events.js'
import { runBody } from './run-body.js'
import { recordAttempt } from './session-recording.js'
import { andThen, answerOf, type Step } from './step.js'

/** The body, alone or inside some of the wrappers: runs one call's execution through them. */
export type Layer = (run: CallRun, exec: WrappedExecution) => Step<CallOutcome>

/** One layer's part in one call: whether its `next` is pending, succeeded, or was refused. */
interface Turn {
  readonly run: CallRun
  readonly exec: WrappedExecution
  readonly inner: Layer
  pending: boolean
  succeeded: boolean
  refused: boolean
  /** What the last `next` handed out, and the outcome behind it when the inner layers answered at once. */
  handed: Promise<CallOutcome> | undefined
  known: CallOutcome | undefined
}

/**
 * Stage 5: `tools/execute` wrappers around the body as an onion, lowest order outermost, composed once per listener
 * version (`composeWrappers`). A wrapper may replace the signal for the layers inside it; the caller's signal is
 * fused back in, so cancelling the call always reaches the body. A wrapper may call `next` again once the previous
 * call failed: a retry runs the inner layers afresh as the next attempt of the same call, and the session log records
 * the failed one. Calling it while one is pending or after a success, throwing, or returning no outcome makes the
 * call a `WRAPPER_ERROR`.
 */
export function runExecuteWrappers(run: CallRun): Step<CallOutcome> {
  const wrappers = run.listeners.execute
  if (wrappers.length === 0) return runBody(run, run.signal)
  const info = run.info!
  return run.listeners.onion(run, {
    signal: run.signal,
    callId: info.id,
    toolName: info.name,
    agentId: info.agentId,
    correlationId: info.correlationId,
    escalated: run.escalated,
    call: info,
    definition: run.target!.definition,
  })
}

/** The wrappers around the body, lowest order outermost. Composed once per listener version, not per call. */
export function composeWrappers(wrappers: readonly ExecuteWrapper[]): Layer {
  return wrappers.reduceRight<Layer>((inner, wrapper) => layer(wrapper, inner), body)
}

function body(run: CallRun, exec: WrappedExecution): Step<CallOutcome> {
  return runBody(run, exec.signal, exec)
}

function layer(wrapper: ExecuteWrapper, inner: Layer): Layer {
  return (run, exec) => {
    const turn: Turn = {
      run,
      exec,
      inner,
      pending: false,
      succeeded: false,
      refused: false,
      handed: undefined,
      known: undefined,
    }
    let returned: Step<CallOutcome>
    try {
      returned = wrapper(exec, nextFor(turn))
    } catch (thrown) {
      return wrapperFailure(turn, thrown)
    }
    // A wrapper that hands back what `next` gave it answers what the inner layers answered, already checked: when
    // they answered at once, so does this layer, and a call whose wrappers only pass through costs no promise here.
    if (returned === turn.handed && turn.known !== undefined && !turn.refused) return turn.known
    return andThen(answerOf(returned), turn, 0, checkOutcome, wrapperFailure)
  }
}

/** The `next` a wrapper receives. Returned anonymous on purpose: nothing names (and so redefines) it per call. */
function nextFor(turn: Turn): NextExecute {
  return (override) => enterInner(turn, override)
}

function enterInner(turn: Turn, override: { readonly signal?: AbortSignal } | undefined): Promise<CallOutcome> {
  if (turn.pending || turn.succeeded) {
    turn.refused = true
    return Promise.reject(new Error(failureMessages.nextTwice()))
  }
  if (turn.handed !== undefined) retrying(turn)
  turn.pending = true
  turn.known = undefined
  const replacement = override?.signal
  const { exec, run } = turn
  const inner =
    replacement === undefined || replacement === exec.signal
      ? exec
      : { ...exec, signal: fuseSignals(replacement, run.signal) }
  let outcome: Step<CallOutcome>
  try {
    outcome = turn.inner(run, inner)
  } catch (thrown) {
    outcome = Promise.reject(thrown)
  }
  turn.handed =
    outcome instanceof Promise
      ? (andThen(outcome, turn, 0, innerSettled, innerFailed) as Promise<CallOutcome>)
      : resolvedOf(run, innerSettled(turn, outcome))
  return turn.handed
}

/**
 * The layers of one call that hand out the same outcome hand out one resolved promise of it, so wrappers that pass
 * through cost one promise in all rather than one each (about 40 ns a call on the pipeline bench's row with two).
 */
function resolvedOf(run: CallRun, outcome: CallOutcome): Promise<CallOutcome> {
  if (run.resolved?.outcome !== outcome) run.resolved = { outcome, promise: Promise.resolve(outcome) }
  return run.resolved.promise
}

/** A `next` after a failed one starts another attempt of the same call: the failed one is logged under its number. */
function retrying(turn: Turn): void {
  const { run, known } = turn
  const notes = noteOn(run)
  recordAttempt(run, notes.attempt, known?.ok === false ? known.error : undefined)
  notes.attempt++
}

function innerSettled(turn: Turn, outcome: CallOutcome): CallOutcome {
  turn.pending = false
  turn.succeeded = outcome.ok
  turn.known = outcome
  return outcome
}

function innerFailed(turn: Turn, thrown: unknown): never {
  turn.pending = false
  throw thrown
}

function wrapperFailure(turn: Turn, thrown: unknown): CallOutcome {
  if (turn.refused) return failure(ToolErrorCode.WRAPPER_ERROR, failureMessages.nextTwice())
  if (isToolError(thrown)) return { ok: false, error: thrown.toInfo() }
  return failure(ToolErrorCode.WRAPPER_ERROR, failureMessages.wrapperFailed(thrownMessage(thrown)))
}

function checkOutcome(turn: Turn, outcome: unknown): CallOutcome {
  if (turn.refused) return failure(ToolErrorCode.WRAPPER_ERROR, failureMessages.nextTwice())
  if (typeof outcome === 'object' && outcome !== null) {
    const candidate = outcome as CallOutcome
    if (candidate.ok === true && Array.isArray(candidate.content)) return candidate
    if (candidate.ok === false && isErrorInfo(candidate.error)) return candidate
  }
  return failure(ToolErrorCode.WRAPPER_ERROR, failureMessages.wrapperNoOutcome())
}

function isErrorInfo(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  return typeof code === 'string' && typeof message === 'string'
}
