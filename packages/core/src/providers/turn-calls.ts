import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import type { JsonObject } from '../json-schema/json-value.js'

/** Longest call id kept as the model sent it; a longer one is replaced, as a missing one is. */
export const MAX_CALL_ID_LENGTH = 256

/** A plain record read from a hostile response, or undefined for anything else (arrays included). */
export function recordOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

/** The entries of an array field, or none; entries that are not records are not calls and are left out. */
export function recordsOf(value: unknown): Readonly<Record<string, unknown>>[] {
  if (!Array.isArray(value)) return []
  const records: Readonly<Record<string, unknown>>[] = []
  for (const entry of value) {
    const record = recordOf(entry)
    if (record !== undefined) records.push(record)
  }
  return records
}

/** A string field, or `''` when the model sent something else. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/**
 * Arguments as JSON text for formats that carry text. Text stays as sent; anything else is written as JSON so the
 * pipeline judges it (an array or number is refused as not an object); absent arguments are blank text.
 */
export function argumentsTextOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined) return ''
  try {
    return JSON.stringify(value) ?? unreadable
  } catch {
    return unreadable
  }
}

/** Text the pipeline cannot read as JSON, so such arguments fail as `INVALID_ARGUMENTS`. */
const unreadable = '\u0000 unreadable arguments'

/** Arguments for formats that carry a parsed object: an object as sent, nothing as `{}`, anything else as JSON text. */
export function argumentsValueOf(value: unknown): string | JsonObject {
  if (value === undefined) return {}
  return recordOf(value) !== undefined ? (value as JsonObject) : argumentsTextOf(value)
}

/**
 * Gives every call of one response an id of its own: the model's when it is a non-empty string of at most
 * `MAX_CALL_ID_LENGTH` characters not used by an earlier call, else `mint(index)` (made unique the same way),
 * so each call is answered by exactly one result even when the model repeats or leaves out ids.
 */
export function createCallIds(mint: (index: number) => string): (raw: unknown, index: number) => string {
  const taken = new Set<string>()
  return (raw, index) => {
    let id =
      typeof raw === 'string' && raw.length > 0 && raw.length <= MAX_CALL_ID_LENGTH && !taken.has(raw)
        ? raw
        : mint(index)
    for (let suffix = 2; taken.has(id); suffix++) id = `${mint(index)}_${suffix}`
    taken.add(id)
    return id
  }
}

/** The error for a value that is not the named provider's response at all (not one with malformed calls). */
export function notAResponse(provider: string, expected: string): InvalidArgumentError {
  return new InvalidArgumentError(`runToolTurn: a '${provider}' response is an object with ${expected}`)
}
