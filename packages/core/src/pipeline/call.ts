import type { ContentPart } from '../definition/content.js'
import type { ToolErrorInfo } from '../errors/tool-error.js'
import type { JsonObject, JsonValue } from '../json-schema/json-value.js'

/** One tool call as the model made it. `arguments` is the model's JSON text or an already parsed object. */
export interface ToolCall {
  readonly id: string
  readonly name: string
  readonly arguments: string | JsonObject
}

/** Extra parts shown after a result, in order, with where they came from. */
export interface ToolContext {
  readonly source?: { readonly toolName: string; readonly callId: string }
  readonly content: readonly ContentPart[]
}

/** What a body, wrapper or listener says happened, before the pipeline settles it. Narrow on `ok`. */
export type CallOutcome = CallSuccess | CallFailure

/** A call that succeeded: its canonical value and the content the model is shown. */
export interface CallSuccess {
  readonly ok: true
  /** The canonical JSON value. */
  readonly value: JsonValue
  readonly content: readonly ContentPart[]
  readonly error?: never
  readonly contexts?: readonly ToolContext[]
  /** Facts for logs and hosts (for example PTC bytes kept out of the conversation); never shown to the model. */
  readonly metadata?: JsonObject
}

/** A call that failed, with the error that says why. */
export interface CallFailure {
  readonly ok: false
  readonly error: ToolErrorInfo
  readonly value?: never
  readonly contexts?: readonly ToolContext[]
  /** Facts for logs and hosts; never shown to the model. */
  readonly metadata?: JsonObject
}

/** How a call settled. Exactly one per call; `execute` never rejects. Narrow on `ok`. */
export type ToolResult = ToolSuccess | ToolFailure

interface Settled {
  readonly id: string
  readonly name: string
  readonly durationMs: number
}

/** A settled successful call, with its id, tool name and duration. */
export interface ToolSuccess extends CallSuccess, Settled {}

/** A settled failed call, with its id, tool name, duration and the error text the model sees. */
export interface ToolFailure extends CallFailure, Settled {
  /** What the model sees: exactly one text part `Error: <message>`. */
  readonly content: readonly ContentPart[]
}
