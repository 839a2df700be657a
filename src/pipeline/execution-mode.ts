import type { AnyToolDefinition, ExecutionMode } from '../definition/tool-definition.js'
import type { JsonObject } from '../json-schema/json-value.js'
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
  if (typeof target.definition.executionMode !== 'function') return declaredMode(target.definition, {})
  const args = readArguments(call.arguments)
  if (args instanceof Unreadable || !isJsonObject(args) || !target.parameters.validate(args).valid) return 'parallel'
  return declaredMode(target.definition, args)
}

/**
 * The mode a definition declares for valid arguments: its `executionMode`, else `parallel` for a read-only hint, else
 * `exclusive`.
 */
export function declaredMode(definition: AnyToolDefinition, args: Readonly<JsonObject>): ExecutionMode {
  const declared = definition.executionMode
  if (declared === undefined) return definition.annotations?.readOnlyHint === true ? 'parallel' : 'exclusive'
  if (typeof declared !== 'function') return declared === 'parallel' ? 'parallel' : 'exclusive'
  try {
    return declared(args) === 'parallel' ? 'parallel' : 'exclusive'
  } catch {
    return 'exclusive'
  }
}
