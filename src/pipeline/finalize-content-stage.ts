import { ToolErrorCode } from '../errors/error-codes.js'
import type { CallOutcome } from './call.js'
import { failure, failureContent, thrownMessage } from './call-outcome.js'
import { type CallRun, noteOn } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import { cutToBudget } from './result-budget.js'

/**
 * Stage 8: the definition's own last word on a successful result's content (truncation, redaction), then the result
 * budget. A failure's content is fixed as `Error: <message>`, so it is not offered to `finalizeContent`; a message
 * longer than the budget is cut all the same.
 */
export function runFinalizeContent(run: CallRun, outcome: CallOutcome): CallOutcome {
  const finalize = run.target?.definition.finalizeContent
  if (finalize === undefined || !outcome.ok) return withinBudget(run, outcome)
  try {
    const content = finalize.call(run.target!.definition, outcome.content, { args: run.info!.arguments, ok: true })
    if (!Array.isArray(content)) {
      return failure(ToolErrorCode.TOOL_ERROR, failureMessages.finalizeFailed(run.info!.name, 'not an array'))
    }
    return withinBudget(run, { ...outcome, content })
  } catch (thrown) {
    return failure(ToolErrorCode.TOOL_ERROR, failureMessages.finalizeFailed(run.info!.name, thrownMessage(thrown)))
  }
}

/** The content cut to the definition's budget, or the runtime's. */
function withinBudget(run: CallRun, outcome: CallOutcome): CallOutcome {
  const target = run.target
  if (target === undefined) return outcome
  const maxBytes = target.definition.maxResultBytes ?? run.scope.core.maxResultBytes
  if (outcome.ok) {
    const cut = cutToBudget(outcome.content, maxBytes, run.call.name)
    if (cut === undefined) return outcome
    noteOn(run).wholeContent = outcome.content
    return { ...outcome, content: cut.content }
  }
  // The message is the text after `Error: `; cut, it is its kept start and the note, a line apart.
  const room = maxBytes - 'Error: \n'.length
  if (outcome.error.message.length * 3 <= room) return outcome
  const message = [{ type: 'text' as const, text: outcome.error.message }]
  const cut = cutToBudget(message, room, run.call.name)
  if (cut === undefined) return outcome
  noteOn(run).wholeContent = failureContent(outcome.error)
  const text = cut.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')
  return { ...outcome, error: { ...outcome.error, message: text } }
}
