import type { ExecutionMode } from '../definition/tool-definition.js'
import type { ToolCall } from './call.js'
import { isPromiseLike } from './call-outcome.js'
import type { PipelineScope } from './call-run.js'
import { isJsonObject } from './frozen-json.js'
import { readArguments, Unreadable } from './read-arguments.js'
import { findTarget } from './resolve-call.js'

/**
 * How a call may be scheduled. A call that cannot reach a tool body (unknown tool, unparseable or invalid arguments)
 * is harmless to overlap (a promised verdict is not awaited here: the classifier then sees the arguments as sent);
 * a classifier that throws or answers nonsense makes the call exclusive.
 */
export function executionModeOf(scope: PipelineScope, call: ToolCall, parentId: string | undefined): ExecutionMode {
  const target = findTarget(scope, call.name, parentId)
  if (target === undefined) return 'parallel'
  const declared = target.definition.executionMode
  if (declared === undefined) return 'exclusive'
  if (typeof declared !== 'function') return declared === 'parallel' ? 'parallel' : 'exclusive'
  const args = readArguments(call.arguments)
  if (args instanceof Unreadable || !isJsonObject(args) || !target.parameters.validate(args).valid) return 'parallel'
  try {
    // The classifier sees what the body will: the parsed arguments, when the parse answers at once.
    const parsed = target.parse?.(args)
    if (parsed !== undefined && !isPromiseLike(parsed) && parsed.kind !== 'valid') return 'parallel'
    const seen = parsed === undefined || isPromiseLike(parsed) ? args : parsed.value
    return declared(seen as typeof args) === 'parallel' ? 'parallel' : 'exclusive'
  } catch {
    return 'exclusive'
  }
}
