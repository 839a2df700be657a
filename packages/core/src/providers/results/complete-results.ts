import { ToolErrorCode } from '../../errors/error-codes.js'
import type { DeferredToolResult, ToolCall, ToolResult } from '../../pipeline/call.js'

const MISSING_MESSAGE = 'the call was not run, so it has no result'

/**
 * Exactly one result per call, in call order: the first result recorded for each call id, or a failure
 * (`ABORTED_BEFORE_DISPATCH`) for a call that has none. Results for ids no call has are left out, because
 * providers reject a result without its call as firmly as a call without its result. A pending approval
 * (`ToolPending`) answers its call like any result.
 */
export function completeResults<Result extends DeferredToolResult = ToolResult>(
  calls: readonly ToolCall[],
  results: readonly Result[],
): (Result | ToolResult)[] {
  const byId = new Map<string, Result>()
  for (const result of results) if (!byId.has(result.id)) byId.set(result.id, result)
  return calls.map((call) => byId.get(call.id) ?? missingResult(call))
}

function missingResult(call: ToolCall): ToolResult {
  return {
    id: call.id,
    name: call.name,
    ok: false,
    content: [{ type: 'text', text: `Error: ${MISSING_MESSAGE}` }],
    error: { code: ToolErrorCode.ABORTED_BEFORE_DISPATCH, message: MISSING_MESSAGE },
    durationMs: 0,
  }
}
