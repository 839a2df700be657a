import type { ToolCall, ToolResult } from './call.js'
import type { PipelineScope, SubCallOrigin } from './call-run.js'
import { executionModeOf } from './execution-mode.js'
import { runCall } from './run-call.js'
import type { Scheduler } from './scheduler.js'

/**
 * Runs a batch through one scheduler: each call keeps its own result and its own failure, and is cancelled only by
 * the signal it was given. Results come back in call order.
 */
export function executeAll(
  scope: PipelineScope,
  calls: readonly ToolCall[],
  scheduler: Scheduler,
  signal: AbortSignal | undefined,
  origin?: SubCallOrigin,
): Promise<ToolResult[]> {
  return Promise.all(calls.map((call) => scheduleCall(scope, call, scheduler, signal, origin)))
}

export function scheduleCall(
  scope: PipelineScope,
  call: ToolCall,
  scheduler: Scheduler,
  signal: AbortSignal | undefined,
  origin?: SubCallOrigin,
): Promise<ToolResult> {
  return scheduler.schedule(safeModeOf(scope, call, origin), () => runCall(scope, call, signal, origin))
}

/** Classifying must not break the batch: whatever goes wrong there, the call runs alone and settles on its own. */
function safeModeOf(scope: PipelineScope, call: ToolCall, origin: SubCallOrigin | undefined) {
  try {
    return executionModeOf(scope, call, origin?.parentId)
  } catch {
    return 'exclusive'
  }
}
