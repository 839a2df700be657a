import { thrownMessage } from '../errors/thrown-message.js'
import { describeAfter } from '../json-schema/describe-value.js'
import { escapePointerToken } from '../json-schema/json-pointer.js'
import type { ValidationIssue } from '../json-schema/validation-result.js'
import { issuePrefix, issueWithMessage, MAX_ISSUES } from '../json-schema/validation-state.js'
import type { StandardSchemaLike } from './standard-schema.js'
import { vendorRules } from './standard-vendors.js'

/** What a library's `~standard.validate` made of a value, read defensively. */
export type StandardVerdict =
  | { readonly kind: 'valid'; readonly value: unknown }
  | { readonly kind: 'invalid'; readonly issues: readonly ValidationIssue[] }
  /** The library threw, rejected or answered something that is no Standard Schema result. */
  | { readonly kind: 'broken'; readonly reason: string }

/** Library text is quoted at most this long: a message, an `expected`, one path key. */
const QUOTED_LENGTH = 160
const KEY_LENGTH = 64
/** Deeper issue paths are cut; no tool argument nests this far in a sane schema. */
const PATH_SEGMENTS = 32
/** Parsed values are frozen this deep; a deeper value is left as the library made it. */
const FREEZE_DEPTH = 64

function cut(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text
}

function broken(reason: string): StandardVerdict {
  return { kind: 'broken', reason: cut(reason, 2 * QUOTED_LENGTH) }
}

/**
 * Runs the library's own validation on `input` (a copy, for a library that writes into its input). Synchronous when the library answers synchronously; a promise
 * (never rejecting) when it answers with one. Whatever the library does (throws, answers garbage, reports a million
 * issues with megabyte messages and cyclic paths) the verdict is small: at most `MAX_ISSUES` issues of bounded text.
 */
export function runStandardValidate(
  schema: StandardSchemaLike,
  input: unknown,
): StandardVerdict | Promise<StandardVerdict> {
  let answer: unknown
  try {
    const props = schema['~standard']
    answer = props.validate!(vendorRules[props.vendor]?.mutatesInput === false ? input : structuredClone(input))
  } catch (error) {
    return broken(`its validate threw: ${thrownMessage(error)}`)
  }
  if (typeof answer === 'object' && answer !== null && typeof (answer as PromiseLike<unknown>).then === 'function') {
    return Promise.resolve(answer).then(
      (settled) => readResult(settled, input),
      (error: unknown) => broken(`its validate rejected: ${thrownMessage(error)}`),
    )
  }
  return readResult(answer, input)
}

function readResult(result: unknown, input: unknown): StandardVerdict {
  try {
    if (typeof result !== 'object' || result === null) return broken('its validate answered neither a value nor issues')
    const issues = (result as { issues?: unknown }).issues
    if (!issues) return { kind: 'valid', value: freezeParsed((result as { value?: unknown }).value, 0) }
    if (!Array.isArray(issues)) return broken('its validate answered issues that are not an array')
    const count = Math.min(issues.length, MAX_ISSUES)
    const worded: ValidationIssue[] = []
    for (let index = 0; index < count; index++) worded.push(wordIssue(issues[index], input))
    if (worded.length === 0) worded.push(issueWithMessage('', 'standard', `${issuePrefix('')}the value was rejected`))
    return { kind: 'invalid', issues: worded }
  } catch (error) {
    return broken(`its validate answered a result that could not be read: ${thrownMessage(error)}`)
  }
}

/** One library issue in our wording: `at <pointer>: expected …, received …`. */
function wordIssue(issue: unknown, input: unknown): ValidationIssue {
  const record = (typeof issue === 'object' && issue !== null ? issue : {}) as Record<string, unknown>
  const segments = pathOf(record.path)
  const pointer = segments.map((segment) => `/${escapePointerToken(segment)}`).join('')
  const received = valueAt(input, segments)
  const expected = typeof record.expected === 'string' && record.expected !== '' ? record.expected : undefined
  const message = typeof record.message === 'string' && record.message !== '' ? record.message : 'invalid value'
  const head = `${issuePrefix(pointer)}${expected === undefined ? cut(message, QUOTED_LENGTH) : `expected ${cut(expected, QUOTED_LENGTH)}`}`
  const text = received.found ? describeAfter(`${head}, received `, received.value) : `${head}; the key is missing`
  const keyword = typeof record.code === 'string' ? cut(record.code, KEY_LENGTH) : 'standard'
  return issueWithMessage(pointer, keyword, text)
}

/** The issue's path as pointer tokens; a segment that is no property key (or a `{ key }` of one) reads `?`. */
function pathOf(path: unknown): string[] {
  if (!Array.isArray(path)) return []
  const length = Math.min(path.length, PATH_SEGMENTS)
  const segments: string[] = []
  for (let index = 0; index < length; index++) {
    const raw: unknown = path[index]
    const key = typeof raw === 'object' && raw !== null ? (raw as { key?: unknown }).key : raw
    segments.push(keyText(key))
  }
  return segments
}

function keyText(key: unknown): string {
  if (typeof key === 'string') return cut(key, KEY_LENGTH)
  if (typeof key === 'number' && Number.isFinite(key)) return String(key)
  if (typeof key === 'symbol') return cut(key.description ?? 'symbol', KEY_LENGTH)
  return '?'
}

/** What sits at `segments` in the (JSON) input, if anything. */
function valueAt(input: unknown, segments: readonly string[]): { found: boolean; value: unknown } {
  let current = input
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) {
      return { found: false, value: undefined }
    }
    current = (current as Record<string, unknown>)[segment]
  }
  return { found: current !== undefined, value: current }
}

/**
 * Freezes the plain objects and arrays of a parsed value, each container before its members so that a cyclic value
 * ends; class instances (a `Date` from a coercion, say) are left as they are. Written for speed: it runs on every
 * call of a Standard Schema tool and costs more than some libraries' whole parse.
 */
function freezeParsed(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    if (Object.isFrozen(value)) return value
    Object.freeze(value)
    if (depth < FREEZE_DEPTH) {
      for (let index = 0; index < value.length; index++) freezeMember(value[index], depth)
    }
    return value
  }
  const prototype = Object.getPrototypeOf(value)
  if ((prototype !== Object.prototype && prototype !== null) || Object.isFrozen(value)) return value
  Object.freeze(value)
  if (depth < FREEZE_DEPTH) {
    // for…in over a plain object sees its own enumerable keys, as Object.keys would, without building an array.
    for (const key in value) freezeMember((value as Record<string, unknown>)[key], depth)
  }
  return value
}

function freezeMember(member: unknown, depth: number): void {
  if (typeof member === 'object' && member !== null) freezeParsed(member, depth + 1)
}
