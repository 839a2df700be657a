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

/**
 * What `execute` returns on a runtime created with `approvals: 'defer'`: a settled result, or `status: 'pending'`
 * for a call waiting on `runtime.decide`. Narrow on `status` first, then on `ok`.
 */
export type DeferredToolResult = ToolResult | ToolPending

interface Settled {
  readonly id: string
  readonly name: string
  readonly durationMs: number
}

/** A settled successful call, with its id, tool name and duration. */
export interface ToolSuccess extends CallSuccess, Settled {
  readonly status?: never
}

/** A settled failed call, with its id, tool name, duration and the error text the model sees. */
export interface ToolFailure extends CallFailure, Settled {
  /** What the model sees: exactly one text part `Error: <message>`. */
  readonly content: readonly ContentPart[]
  readonly status?: never
}

/** What the approver must see of a deferred call. */
export interface PendingApproval {
  readonly toolName: string
  /** The validated, frozen arguments the decision is about. */
  readonly arguments: JsonObject
  /** Every reason given for asking, in order. */
  readonly reasons: readonly string[]
  readonly agentId?: string
  /** Milliseconds since the epoch; past it the approval settles as `DENIED`. */
  readonly expiresAt: number
}

/**
 * A call that needs approval under `approvals: 'defer'`: recorded durably, not run. `runtime.decide(approvalId, …)`
 * settles it, in this process or another. Not ok, and not a failure: it has no `error`.
 */
export interface ToolPending extends Settled {
  readonly ok: false
  readonly status: 'pending'
  readonly approvalId: string
  readonly approval: PendingApproval
  /** What the model sees meanwhile: one text part saying the call awaits a human's approval. */
  readonly content: readonly ContentPart[]
  readonly error?: never
  readonly value?: never
  readonly contexts?: never
  readonly metadata?: never
}
