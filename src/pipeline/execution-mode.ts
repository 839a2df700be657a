import type { AnyToolDefinition, ExecutionMode } from '../definition/tool-definition.js'
import type { JsonObject } from '../json-schema/json-value.js'
import { isPromiseLike } from './call-outcome.js'
import type { PreparedCall } from './call-run.js'
import { isJsonObject } from './frozen-json.js'
import { Unreadable } from './read-arguments.js'

/**
 * How a prepared call may be scheduled. A call that cannot reach a tool body (unknown tool, unparseable or invalid
 * arguments) is harmless to overlap (a promised verdict is not awaited here: the classifier then sees the arguments
 * as sent); a classifier that throws or answers nonsense makes the call exclusive.
 */
export function executionModeOf({ target, args, refusal }: PreparedCall): ExecutionMode {
  if (target === undefined || refusal !== undefined) return 'parallel'
  if (typeof target.definition.executionMode !== 'function') return declaredMode(target.definition, {})
  if (args instanceof Unreadable || !isJsonObject(args) || !target.parameters.validate(args).valid) return 'parallel'
  // The classifier sees what the body will: the parsed arguments, when the parse answers at once.
  let parsed: ReturnType<NonNullable<typeof target.parse>> | undefined
  try {
    parsed = target.parse?.(args)
  } catch {
    return 'exclusive'
  }
  if (parsed === undefined || isPromiseLike(parsed)) return declaredMode(target.definition, args)
  return parsed.kind === 'valid' ? declaredMode(target.definition, parsed.value as JsonObject) : 'parallel'
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
