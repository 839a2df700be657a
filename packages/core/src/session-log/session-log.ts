import type { ContentPart } from '../definition/content.js'
import type { ToolErrorInfo } from '../errors/tool-error.js'
import type { JsonObject, JsonValue } from '../json-schema/json-value.js'

/** Written when a call enters the pipeline, before any policy ran. */
export interface ToolCallStartedRecord {
  readonly type: 'tool.call.started'
  readonly id: string
  readonly name: string
  /** The parsed arguments, or the model's raw text when it was not JSON. */
  readonly arguments: JsonValue
  readonly agentId?: string
  /** The `run_code` call a PTC sub-call belongs to. */
  readonly parentId?: string
  /** Milliseconds since the epoch. */
  readonly at: number
}

/** Written exactly once per call, when its result is final. */
export interface ToolCallSettledRecord {
  readonly type: 'tool.call.settled'
  readonly id: string
  readonly name: string
  readonly ok: boolean
  readonly content: readonly ContentPart[]
  readonly error?: ToolErrorInfo
  readonly durationMs: number
  readonly metadata?: JsonObject
  readonly agentId?: string
  readonly parentId?: string
  readonly at: number
}

/** One entry of a session log: a call started, or a call settled. */
export type SessionLogRecord = ToolCallStartedRecord | ToolCallSettledRecord

/**
 * Where the pipeline records what ran. A returned promise is awaited for settled records before the call's result
 * is handed back, so a durable log holds every result a caller has seen.
 */
export interface SessionLog {
  append(record: SessionLogRecord): void | Promise<void>
}
