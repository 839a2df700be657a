import type { JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import type { PtcLimits } from './ptc-limits.js'

/**
 * What a program's side of the channel may say, in both runtimes: the isolated-vm prelude and the Python runner
 * write these same messages, and `readProgramMessage` checks each one on arrival before the host acts on it.
 */
export type ProgramMessage =
  /** The program's first statement is about to run (TypeScript only). */
  | { readonly t: 'started' }
  /** Printed text, any number of lines; a line without its newline continues in the next message. */
  | { readonly t: 'out'; readonly text: string }
  | { readonly t: 'call'; readonly id: number; readonly name: string; readonly args: JsonValue }
  | { readonly t: 'timer'; readonly id: number; readonly ms: number }
  | { readonly t: 'clear'; readonly id: number }
  /** The program ended: with its value (absent or null for none), or with what stopped it. */
  | { readonly t: 'done'; readonly value?: JsonValue }
  | { readonly t: 'done'; readonly error: ProgramReport }

/** What the host sends the program: a sub-call's result, or a timer that came due. */
export type HostMessage =
  | {
      readonly t: 'result'
      readonly id: number
      readonly ok: true
      readonly callId: string
      readonly value: JsonValue
      readonly json: string
    }
  | {
      readonly t: 'result'
      readonly id: number
      readonly ok: false
      readonly callId: string
      readonly error: { readonly toolName: string; readonly code: string; readonly message: string }
    }
  | { readonly t: 'timer'; readonly id: number }

/** A failure the program's side reports about itself: a kind it names and its own text. */
export interface ProgramReport {
  readonly kind: string
  readonly message: string
}

export type ReadMessage =
  | { readonly ok: true; readonly message: ProgramMessage }
  /** `terminal`: the message claimed to end the run, so nothing later can repair it. */
  | { readonly ok: false; readonly problem: string; readonly terminal: boolean }

/** Nesting of call arguments and returned values; the pipeline's own argument parser allows as many. */
export const MAX_PROGRAM_JSON_DEPTH = 64
/** Longest tool name a call may carry. */
const MAX_NAME_LENGTH = 1024
/** Longest kind and text of a program's own failure report (a Python traceback fits many times over). */
const MAX_KIND_LENGTH = 64
const MAX_REPORT_LENGTH = 256 * 1024

type FieldCheck = (value: unknown, limits: PtcLimits) => string | undefined

const text =
  (maxLength: (limits: PtcLimits) => number): FieldCheck =>
  (value, limits) => {
    if (typeof value !== 'string') return 'is not a string'
    const max = maxLength(limits)
    return value.length > max ? `is longer than ${max} characters` : undefined
  }
const messageId: FieldCheck = (value) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? undefined : 'is not a message id'
const milliseconds: FieldCheck = (value) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? undefined : 'is not a duration in ms'
const anyJson: FieldCheck = () => undefined
const report: FieldCheck = (value) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not an object'
  const keys = Object.keys(value)
  if (keys.length !== 2 || !('kind' in value) || !('message' in value)) return 'needs exactly kind and message'
  const kind = text(() => MAX_KIND_LENGTH)(value.kind, undefined as never)
  return kind === undefined ? text(() => MAX_REPORT_LENGTH)(value.message, undefined as never) : `kind ${kind}`
}

interface MessageShape {
  readonly required: Readonly<Record<string, FieldCheck>>
  readonly optional?: Readonly<Record<string, FieldCheck>>
  /** At most one of the optional fields. */
  readonly exclusive?: boolean
}

const shapes: Readonly<Record<ProgramMessage['t'], MessageShape>> = {
  started: { required: {} },
  // A Python chunk or a TypeScript line with its newline: never more than the output cap plus that newline.
  out: { required: { text: text((limits) => limits.maxOutputBytes + 1) } },
  call: { required: { id: messageId, name: text(() => MAX_NAME_LENGTH), args: anyJson } },
  timer: { required: { id: messageId, ms: milliseconds } },
  clear: { required: { id: messageId } },
  done: { required: {}, optional: { value: anyJson, error: report }, exclusive: true },
}

/**
 * `raw` as a program message, or what is wrong with it. Every field is type-checked and bounded, and a field the
 * shape does not name is a problem too; sizes and nesting of call arguments are the host's to refuse, not this.
 */
export function readProgramMessage(raw: unknown, limits: PtcLimits): ReadMessage {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, problem: 'a message that is not an object', terminal: false }
  }
  const fields = raw as Record<string, unknown>
  const kind = fields.t
  if (typeof kind !== 'string' || !Object.hasOwn(shapes, kind)) {
    const named = typeof kind === 'string' ? JSON.stringify(kind.slice(0, 40)) : 'no'
    return { ok: false, problem: `a message of ${named} kind`, terminal: false }
  }
  const shape = shapes[kind as ProgramMessage['t']]
  if (fitsShape(fields, shape, limits)) return { ok: true, message: fields as unknown as ProgramMessage }
  return shapeProblem(kind, fields, shape, limits)
}

/** Whether every field passes its check, every required one is there and no other is: the test each message takes. */
function fitsShape(fields: Record<string, unknown>, shape: MessageShape, limits: PtcLimits): boolean {
  if (!Object.hasOwn(fields, 't')) return false
  let present = 1
  for (const key in shape.required) {
    if (!Object.hasOwn(fields, key) || shape.required[key]?.(fields[key], limits) !== undefined) return false
    present++
  }
  if (shape.optional !== undefined) {
    let optionalSeen = 0
    for (const key in shape.optional) {
      if (!Object.hasOwn(fields, key)) continue
      if (shape.optional[key]?.(fields[key], limits) !== undefined) return false
      optionalSeen++
    }
    if (shape.exclusive === true && optionalSeen > 1) return false
    present += optionalSeen
  }
  let own = 0
  for (const key in fields) if (Object.hasOwn(fields, key)) own++
  return own === present
}

/** What is wrong with a message `fitsShape` refused, worded for the model: the first bad field in its order. */
function shapeProblem(
  kind: string,
  fields: Record<string, unknown>,
  shape: MessageShape,
  limits: PtcLimits,
): ReadMessage {
  let optionalSeen = 0
  for (const key of Object.keys(fields)) {
    if (key === 't') continue
    const check = Object.hasOwn(shape.required, key)
      ? shape.required[key]
      : shape.optional !== undefined && Object.hasOwn(shape.optional, key)
        ? shape.optional[key]
        : undefined
    if (check === undefined) return refusal(kind, `with a field it does not have (${JSON.stringify(key.slice(0, 40))})`)
    if (shape.optional !== undefined && Object.hasOwn(shape.optional, key)) optionalSeen++
    const problem = check(fields[key], limits)
    if (problem !== undefined) return refusal(kind, `whose ${key} ${problem}`)
  }
  for (const key of Object.keys(shape.required)) {
    if (!Object.hasOwn(fields, key)) return refusal(kind, `without its ${key}`)
  }
  if (shape.exclusive === true && optionalSeen > 1) return refusal(kind, 'with both a value and an error')
  return { ok: true, message: fields as unknown as ProgramMessage }
}

/** A known kind's message that is wrong; a `done` that is wrong is terminal. */
function refusal(kind: string, problem: string): ReadMessage {
  return { ok: false, problem: `a "${kind}" message ${problem}`, terminal: kind === 'done' }
}
