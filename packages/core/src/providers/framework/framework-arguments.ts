import type { JsonObject } from '../../json-schema/json-value.js'
import { defaultJsonArgumentLimits } from '../../json-schema/parse-json-arguments.js'

const { maxBytes, maxDepth } = defaultJsonArgumentLimits

/**
 * Arguments a framework already parsed, as the pipeline should read them. Text and ordinary objects go through as
 * they are. An object past the limits the pipeline holds the model's text to (1 MiB, 64 levels) goes back to its
 * JSON text, so the pipeline refuses it as it would the text itself: `INVALID_ARGUMENTS`, in its own words.
 */
export function frameworkArguments(args: unknown): string | JsonObject {
  if (typeof args === 'string' || !exceedsTextLimits(args)) return args as string | JsonObject
  try {
    return JSON.stringify(args) ?? ''
  } catch {
    // A cycle or a BigInt: not JSON, and the pipeline says so when it copies the value.
    return args as JsonObject
  }
}

/**
 * Whether the value's JSON text would pass either limit. Counts a lower bound of the text (string and key lengths,
 * one byte per value), walks without recursion and stops as soon as it is over: cheap for the calls that are not.
 */
function exceedsTextLimits(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  let bytes = 0
  const pending: [unknown, number][] = [[value, 1]]
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!
    bytes += 1
    if (typeof item === 'string') bytes += item.length
    else if (typeof item === 'object' && item !== null) {
      if (depth > maxDepth) return true
      const keys = Array.isArray(item) ? undefined : Object.keys(item)
      const members = Array.isArray(item) ? item : keys!.map((key) => (item as Record<string, unknown>)[key])
      // Each member takes at least one more byte (its separator) before it is even looked at.
      bytes += members.length
      if (bytes > maxBytes) return true
      if (keys !== undefined) for (const key of keys) bytes += key.length
      for (const member of members) pending.push([member, depth + 1])
    }
    if (bytes > maxBytes) return true
  }
  return false
}
