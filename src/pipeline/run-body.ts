import type { ContentPart } from '../definition/content.js'
import type { ToolExecution } from '../definition/tool-definition.js'
import { ToolErrorCode } from '../errors/error-codes.js'
import type { JsonValue } from '../json-schema/json-value.js'
import type { CallOutcome } from './call.js'
import { failure, failureFromThrown, thrownMessage } from './call-outcome.js'
import { type CallRun, neverAborted } from './call-run.js'
import { failureMessages } from './failure-messages.js'
import { formatIssues } from './resolve-call.js'
import { andThen, answerOf, type Step } from './step.js'

/**
 * Stage 6: the tool body with the (fused) signal, then its value checked against `output.schema` and rendered.
 * A signal already aborted here means the body never runs.
 */
export function runBody(run: CallRun, signal: AbortSignal, wrapped?: ToolExecution): Step<CallOutcome> {
  const info = run.info!
  if (signal !== neverAborted && signal.aborted) {
    return failure(ToolErrorCode.ABORTED_BEFORE_DISPATCH, failureMessages.abortedBeforeDispatch(info.name))
  }
  const target = run.target!
  // A wrapper's view already is a ToolExecution with this signal; the body may see its extra fields.
  const exec: ToolExecution =
    wrapped?.signal === signal
      ? wrapped
      : {
          signal,
          callId: info.id,
          toolName: info.name,
          agentId: info.agentId,
          correlationId: info.correlationId,
          escalated: run.escalated,
        }
  run.dispatched = true
  let value: unknown
  try {
    value = target.definition.execute(info.arguments, exec)
  } catch (thrown) {
    return bodyFailure(info.name, signal, thrown)
  }
  const answered = target.definition.returnsOutcome === true ? asOutcome : checkAndRender
  return andThen(answerOf(value), run, 0, answered, (_run, thrown) => bodyFailure(info.name, signal, thrown))
}

/** A body that answers its whole outcome: taken as it is once its shape is one. */
function asOutcome(run: CallRun, returned: unknown): CallOutcome {
  const outcome = returned as CallOutcome | undefined
  const shaped =
    typeof outcome === 'object' &&
    outcome !== null &&
    (outcome.ok === true
      ? Array.isArray(outcome.content)
      : outcome.ok === false && typeof outcome.error?.code === 'string' && typeof outcome.error.message === 'string')
  return shaped ? outcome : failure(ToolErrorCode.TOOL_ERROR, failureMessages.noOutcome(run.info!.name))
}

/**
 * A body that rejects with its own signal's reason honoured the cancellation: that is `ABORTED`, not a tool failure.
 * Any other error is the tool's (`TOOL_ERROR`), abort or not.
 */
function bodyFailure(name: string, signal: AbortSignal, thrown: unknown): CallOutcome {
  if (signal.aborted && thrown === signal.reason) return failure(ToolErrorCode.ABORTED, failureMessages.aborted(name))
  return failureFromThrown(thrown, ToolErrorCode.TOOL_ERROR)
}

function checkAndRender(run: CallRun, returned: unknown): CallOutcome {
  const value = (returned === undefined ? null : returned) as JsonValue
  const { definition, output } = run.target!
  const name = run.info!.name
  if (output !== undefined) {
    const validation = output.validate(value)
    if (!validation.valid) {
      return failure(ToolErrorCode.INVALID_OUTPUT, failureMessages.invalidOutput(name, formatIssues(validation.issues)))
    }
  }
  const render = definition.output?.render
  if (render === undefined) return { ok: true, value, content: renderJson(value) }
  try {
    const content = render(run.info!.arguments, value)
    if (!Array.isArray(content))
      return failure(ToolErrorCode.TOOL_ERROR, failureMessages.renderFailed(name, 'not an array'))
    return { ok: true, value, content }
  } catch (thrown) {
    return failure(ToolErrorCode.TOOL_ERROR, failureMessages.renderFailed(name, thrownMessage(thrown)))
  }
}

/** The default rendering: a string as itself, anything else as its JSON text. */
export function renderJson(value: JsonValue): readonly ContentPart[] {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value)
  return Object.freeze([{ type: 'text', text }])
}
