import { ToolErrorCode } from '../errors/error-codes.js'
import type { CallOutcome } from './call.js'
import { failure, isPromiseLike, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { failureMessages } from './failure-messages.js'

/** Stage 3: synchronous guards after the listeners. A returned reason denies; so does a guard that breaks. */
export function runGuards(run: CallRun): CallOutcome | undefined {
  const guards = run.listeners.guards
  if (guards.length === 0) return undefined
  const info = run.info!
  const definition = run.target!.definition
  for (const guard of guards) {
    let reason: unknown
    try {
      reason = guard(info, definition)
    } catch (thrown) {
      return failure(ToolErrorCode.LISTENER_ERROR, failureMessages.guardFailed(thrownMessage(thrown)))
    }
    if (reason === undefined || reason === null) continue
    if (typeof reason === 'string') {
      return failure(ToolErrorCode.DENIED, reason || failureMessages.deniedByDefault(info.name))
    }
    if (isPromiseLike(reason)) Promise.resolve(reason).catch(() => {})
    return failure(ToolErrorCode.LISTENER_ERROR, failureMessages.guardNotSynchronous())
  }
  return undefined
}
