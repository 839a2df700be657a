import type { ExecutionMode } from '../definition/tool-definition.js'
import type { ToolCall } from './call.js'
import type { PipelineScope } from './call-run.js'
import { isJsonObject } from './frozen-json.js'
import { readArguments, Unreadable } from './read-arguments.js'
import { findTarget } from './resolve-call.js'

/**
 * How a call may be scheduled. A call that cannot reach a tool body (unknown tool, unparseable or invalid arguments)
 * is harmless to overlap; a classifier that throws or answers nonsense makes the call exclusive.
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
    return declared(args) === 'parallel' ? 'parallel' : 'exclusive'
  } catch {
    return 'exclusive'
  }
}
