import type { JsonValue } from '../json-schema/json-value.js'

/** Freezes a value the pipeline parsed itself, in place: nobody else holds a reference to it. */
export function freezeParsed<Value extends JsonValue>(value: Value): Value {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    for (const item of value) freezeParsed(item)
  } else {
    for (const key in value) {
      const item = (value as Record<string, JsonValue>)[key]
      if (typeof item === 'object' && item !== null) freezeParsed(item)
    }
  }
  return Object.freeze(value)
}

/**
 * Copies a caller-owned value into frozen JSON, so that freezing never touches the caller's objects.
 * Returns undefined when the value is not lossless JSON (functions, undefined, non-finite numbers, class instances).
 */
export function copyFrozenJson(value: unknown, depth = 0): JsonValue | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value !== 'object' || depth > 512) return undefined
  if (Array.isArray(value)) {
    const items: JsonValue[] = []
    for (const item of value) {
      const copy = copyFrozenJson(item, depth + 1)
      if (copy === undefined) return undefined
      items.push(copy)
    }
    return Object.freeze(items) as JsonValue
  }
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return undefined
  const copy: Record<string, JsonValue> = {}
  for (const key of Object.keys(value)) {
    const item = copyFrozenJson((value as Record<string, unknown>)[key], depth + 1)
    if (item === undefined) return undefined
    // Assigning "__proto__" would set the prototype instead: the key would vanish from what the validator, the
    // approver and the log see, while the body still read its members. It becomes an own data property, as in
    // JSON.parse output.
    if (key === '__proto__') {
      Object.defineProperty(copy, key, { value: item, writable: true, enumerable: true, configurable: true })
    } else {
      copy[key] = item
    }
  }
  return Object.freeze(copy)
}

export function isJsonObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
