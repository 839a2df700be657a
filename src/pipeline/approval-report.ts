import { isPromiseLike } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import type { ApprovalEvent, ApprovalVerdict } from './pipeline-events.js'
import { recordApproval } from './session-recording.js'

/**
 * Tells the session log and the `tools/approval` observers how an approval ended. Observers are isolated as the
 * result observers are: none can change, delay or fail the call.
 */
export function reportApproval(
  run: CallRun,
  verdict: ApprovalVerdict,
  answer: { readonly reason?: string | undefined; readonly decidedBy?: unknown },
  askedAt: number,
): void {
  const observers = run.listeners.approval
  if (observers.length === 0 && run.scope.core.sessionLog === undefined) return
  const event: ApprovalEvent = Object.freeze({
    call: run.info!,
    reasons: run.asks,
    verdict,
    reason: typeof answer.reason === 'string' ? answer.reason : undefined,
    decidedBy: typeof answer.decidedBy === 'string' ? answer.decidedBy.slice(0, 200) : undefined,
    waitedMs: performance.now() - askedAt,
  })
  recordApproval(run, event)
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
