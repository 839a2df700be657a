import { ToolErrorCode } from '../errors/error-codes.js'
import { isToolError } from '../errors/tool-error.js'
import { failure, isPromiseLike, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import { fuseSignals } from './fuse-signals.js'
import type { CallOutcome, NextExecute, WrappedExecution } from './pipeline-events.js'
import { runBody } from './run-body.js'

/** One layer of the onion for one call: which wrapper, with what execution, and how often it called `next`. */
interface Layer {
  readonly run: CallRun
  readonly index: number
  readonly exec: WrappedExecution
  calls: number
  /** What `next` returned, so a wrapper that hands it straight back costs no extra promise. */
  inner: Promise<CallOutcome> | undefined
}

/**
 * Stage 5: `tools/execute` wrappers around the body as an onion, lowest order outermost. A wrapper may replace the
 * signal for the layers inside it; the caller's signal is fused back in, so cancelling the call always reaches the
 * body. Calling `next` twice, throwing, or returning no outcome makes the call a `WRAPPER_ERROR`.
 */
export function runExecuteWrappers(run: CallRun): CallOutcome | Promise<CallOutcome> {
  if (run.listeners.execute.length === 0) return runBody(run, run.signal)
  const info = run.info!
  const exec: WrappedExecution = {
    signal: run.signal,
    callId: info.id,
    toolName: info.name,
    agentId: info.agentId,
    correlationId: info.correlationId,
    escalated: run.escalated,
    call: info,
    definition: run.target!.definition,
  }
  const outcome = enter(run, 0, exec)
  // Every wrapper handed the body's own already-settled promise straight back: the outcome is known now.
  return outcome === run.bodyPromise ? run.bodyOutcome! : outcome
}

function enter(run: CallRun, index: number, exec: WrappedExecution): Promise<CallOutcome> {
  const wrappers = run.listeners.execute
  if (index === wrappers.length) {
    const outcome = runBody(run, exec.signal, exec)
    if (isPromiseLike(outcome)) return outcome
    run.bodyOutcome = outcome
    run.bodyPromise = Promise.resolve(outcome)
    return run.bodyPromise
  }
  const layer: Layer = { run, index, exec, calls: 0, inner: undefined }
  let returned: CallOutcome | Promise<CallOutcome>
  try {
    returned = wrappers[index]!(exec, nextFor(layer))
  } catch (thrown) {
    return Promise.resolve(wrapperFailure(layer, thrown))
  }
  if (!isPromiseLike(returned)) return Promise.resolve(checkOutcome(layer, returned))
  if (returned === layer.inner && layer.calls === 1) return returned
  return Promise.resolve(returned).then(
    (outcome) => checkOutcome(layer, outcome),
    (thrown: unknown) => wrapperFailure(layer, thrown),
  )
}

/** The `next` a wrapper receives. Returned anonymous on purpose: nothing names (and so redefines) it per call. */
function nextFor(layer: Layer): NextExecute {
  return (override) => callNext(layer, override)
}

function callNext(layer: Layer, override: { readonly signal?: AbortSignal } | undefined): Promise<CallOutcome> {
  layer.calls++
  if (layer.calls > 1) return Promise.reject(new Error(failureMessages.nextTwice()))
  const replacement = override?.signal
  const { exec, run } = layer
  const inner =
    replacement === undefined || replacement === exec.signal
      ? exec
      : { ...exec, signal: fuseSignals(replacement, run.signal) }
  layer.inner = enter(run, layer.index + 1, inner)
  return layer.inner
}

function wrapperFailure(layer: Layer, thrown: unknown): CallOutcome {
  if (layer.calls > 1) return failure(ToolErrorCode.WRAPPER_ERROR, failureMessages.nextTwice())
  if (isToolError(thrown)) return { ok: false, error: thrown.toInfo() }
  return failure(ToolErrorCode.WRAPPER_ERROR, failureMessages.wrapperFailed(thrownMessage(thrown)))
}

function checkOutcome(layer: Layer, outcome: unknown): CallOutcome {
  if (layer.calls > 1) return failure(ToolErrorCode.WRAPPER_ERROR, failureMessages.nextTwice())
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
