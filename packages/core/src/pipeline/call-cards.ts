import type { AnyToolDefinition, CardIntent } from '../definition/tool-definition.js'
import type { JsonObject } from '../json-schema/json-value.js'
import { parseJsonArguments } from '../json-schema/parse-json-arguments.js'
import type { ToolCall, ToolResult } from './call.js'
import { copyFrozenJson, isJsonObject } from './frozen-json.js'

/** The card a definition's `presentCall` makes of a call; undefined when it has none, or the call or it fails. */
export function callCard(definition: AnyToolDefinition | undefined, call: ToolCall): CardIntent | undefined {
  const args = definition?.presentCall === undefined ? undefined : argumentsOf(call)
  return args === undefined ? undefined : safely(() => definition!.presentCall!(args))
}

/** The card a definition's `presentResult` makes of a call's success; undefined as for `callCard`, or on a failure. */
export function resultCard(
  definition: AnyToolDefinition | undefined,
  call: ToolCall,
  result: ToolResult,
): CardIntent | undefined {
  if (definition?.presentResult === undefined || !result.ok || result.value === undefined) return undefined
  const args = argumentsOf(call)
  return args === undefined ? undefined : safely(() => definition.presentResult!(args, result.value))
}

function argumentsOf(call: ToolCall): JsonObject | undefined {
  const value = typeof call.arguments === 'string' ? parsed(call.arguments) : copyFrozenJson(call.arguments)
  return isJsonObject(value) ? value : undefined
}

function parsed(text: string): unknown {
  const result = parseJsonArguments(text)
  return result.ok ? result.value : undefined
}

function safely<Value>(present: () => Value): Value | undefined {
  try {
    return present()
  } catch {
    return undefined
  }
}
