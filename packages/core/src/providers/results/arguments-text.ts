import type { JsonObject } from '../../json-schema/json-value.js'

/** Call arguments as the JSON text providers carry; text is passed on exactly as the model wrote it. */
export function argumentsText(args: string | JsonObject): string {
  return typeof args === 'string' ? args : JSON.stringify(args)
}

/** Call arguments as an object, for formats that carry parsed JSON; text that is not a JSON object becomes `{}`. */
export function argumentsObject(args: string | JsonObject): JsonObject {
  if (typeof args !== 'string') return args
  try {
    const value: unknown = JSON.parse(args)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {}
  } catch {
    return {}
  }
}
