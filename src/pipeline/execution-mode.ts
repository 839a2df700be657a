import type { ExecutionMode } from '../definition/tool-definition.js'
import type { PreparedCall } from './call-run.js'
import { isJsonObject } from './frozen-json.js'
import { Unreadable } from './read-arguments.js'

/**
 * How a prepared call may be scheduled. A call that cannot reach a tool body (unknown tool, unparseable or invalid
 * arguments) is harmless to overlap; a classifier that throws or answers nonsense makes the call exclusive.
 */
export function executionModeOf({ target, args, refusal }: PreparedCall): ExecutionMode {
  if (target === undefined || refusal !== undefined) return 'parallel'
  const declared = target.definition.executionMode
  if (declared === undefined) return 'exclusive'
  if (typeof declared !== 'function') return declared === 'parallel' ? 'parallel' : 'exclusive'
  if (args instanceof Unreadable || !isJsonObject(args) || !target.parameters.validate(args).valid) return 'parallel'
  try {
    return declared(args) === 'parallel' ? 'parallel' : 'exclusive'
  } catch {
    return 'exclusive'
  }
}
