/**
 * How schema values become generated source. Only what passes through here reaches `new Function`: numbers
 * checked finite, and strings, booleans and null through JSON.stringify.
 */

/** A test of `data` per JSON type name. */
export const KIND_TESTS = {
  string: 'typeof data === "string"',
  number: 'typeof data === "number"',
  integer: 'Number.isInteger(data)',
  boolean: 'typeof data === "boolean"',
  null: 'data === null',
  array: 'Array.isArray(data)',
  object: '(typeof data === "object" && data !== null && !Array.isArray(data))',
} as const

/** A finite number as a parenthesised literal; anything else throws, so it never reaches the source. */
export function finite(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error('not a finite number')
  return `(${String(value)})`
}

/** A JSON primitive as a source literal, or undefined for anything else. */
export function literal(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return JSON.stringify(value)
  if (typeof value === 'number' && Number.isFinite(value)) return `(${String(value)})`
  return undefined
}
