import { ToolErrorCode } from '../errors/error-codes.js'
import type { CallOutcome } from './call.js'
import { failure, thrownMessage } from './call-outcome.js'
import type { CallRun } from './call-run.js'
import { failureMessages } from './failure-messages.js'

/**
 * Stage 8: the definition's own last word on a successful result's content (truncation, redaction). A failure's
 * content is fixed as `Error: <message>`, so it is not offered to `finalizeContent`.
 */
export function runFinalizeContent(run: CallRun, outcome: CallOutcome): CallOutcome {
  const finalize = run.target?.definition.finalizeContent
  if (finalize === undefined || !outcome.ok) return outcome
  try {
    const content = finalize.call(run.target!.definition, outcome.content, { args: run.info!.arguments, ok: true })
    if (!Array.isArray(content)) {
      return failure(ToolErrorCode.TOOL_ERROR, failureMessages.finalizeFailed(run.info!.name, 'not an array'))
    }
    return { ...outcome, content }
  } catch (thrown) {
    return failure(ToolErrorCode.TOOL_ERROR, failureMessages.finalizeFailed(run.info!.name, thrownMessage(thrown)))
  }
}
