import type { ToolResult } from './call.js'
import { isPromiseLike } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import type { ResultEvent } from './pipeline-events.js'

/**
 * Stage 9: observers see the frozen final result. Each runs in its own try/catch, and an asynchronous one's
 * rejection is swallowed: an observer can never change, delay or fail the call, nor disturb another observer.
 */
export function notifyResultObservers(run: CallRun, result: ToolResult): void {
  const observers = run.listeners.result
  if (observers.length === 0) return
  const event: ResultEvent = Object.freeze({
    result,
    agentId: run.scope.agentId,
    parentId: run.parentId,
    call: run.info,
  })
  for (const observer of observers) {
    try {
      const returned = observer(event)
      if (isPromiseLike(returned)) Promise.resolve(returned).catch(ignore)
    } catch {
      // Observers are isolated from each other and from the call.
    }
  }
}

function ignore(): void {}
