import { isStandardSchema } from '../schema/standard-schema.js'

/**
 * Freezes a JSON-like tree in place and returns it. Functions are left alone, and so is a Standard Schema: it is the
 * library's object, whose caches fill lazily.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value) || isStandardSchema(value)) return value
  for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key])
  return Object.freeze(value)
}
