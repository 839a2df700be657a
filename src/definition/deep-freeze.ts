import { isStandardSchema } from '../schema/standard-schema.js'

/**
 * Freezes a JSON-like tree in place and returns it. Functions are left alone, and so is a Standard Schema: it is the
 * library's object, whose caches fill lazily.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value) || isStandardSchema(value)) return value
  if (Array.isArray(value)) {
    // An indexed loop that skips scalars: a million-member enum must cost milliseconds, not a key string each.
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index]
      if (typeof item === 'object' && item !== null) deepFreeze(item)
    }
  } else for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key])
  return Object.freeze(value)
}
