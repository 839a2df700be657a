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

/** How a call settled. Exactly one per call; `execute` never rejects. */
export interface ToolResult {
  readonly id: string
  readonly name: string
  readonly ok: boolean
  /** What the model sees. A failure is exactly one text part `Error: <message>`. */
  readonly content: readonly ContentPart[]
  /** The canonical JSON value, when ok. */
  readonly value?: JsonValue
  readonly error?: ToolErrorInfo
  readonly contexts?: readonly ToolContext[]
  readonly durationMs: number
  /** Facts for logs and hosts (for example PTC bytes kept out of the conversation); never shown to the model. */
  readonly metadata?: JsonObject
}
