import type { JsonObject, JsonValue } from '../json-schema/json-value.js'
import type { JsonSchemaNode, JsonSchemaObject } from '../json-schema/node.js'
import type { ContentPart } from './content.js'

/** Whether a tool's calls may overlap other calls (`parallel`) or must run alone (`exclusive`). */
export type ExecutionMode = 'parallel' | 'exclusive'

/** What a tool body receives beside its arguments. */
export interface ToolExecution {
  /** Aborted when the caller cancels or a deadline passes. Bodies must observe it. */
  readonly signal: AbortSignal
  /** The call id the model gave (or `<parent>:ptc:<n>` for a sub-call). */
  readonly callId: string
  readonly toolName: string
  /** The agent scope the call runs in; undefined for the global scope. */
  readonly agentId: string | undefined
  /** Opaque token minted per call, for correlating logs and side effects. */
  readonly correlationId: string
  /**
   * True when the call runs inside a code-mode program whose escalation was approved: a sub-call of a `run_code`
   * call with `sandbox_permissions: "require_escalated"` that the approver allowed. False otherwise, top-level calls
   * included.
   */
  readonly escalated: boolean
}

/** A UI render intent for host-local consumers; it never reaches the model. */
export interface CardIntent {
  readonly card: string
  readonly title?: string
  readonly props?: JsonObject
}

/** A definition's output: the canonical JSON Schema of its value and the renderer that turns a value into content. */
export interface ToolOutput<Args, Value> {
  readonly schema: JsonSchemaNode
  /** Default: one text part holding the value as JSON (a string value as itself). */
  render?(args: Args, value: Value): readonly ContentPart[]
}

/** What `finalizeContent` learns about the call: its arguments and whether it succeeded. */
export interface FinalizeContext<Args> {
  readonly args: Args
  readonly ok: boolean
}

/** MCP-compatible behaviour hints; carried to MCP clients and used for scheduling defaults. */
export interface ToolAnnotations {
  readonly title?: string
  readonly readOnlyHint?: boolean
  readonly destructiveHint?: boolean
  readonly idempotentHint?: boolean
  readonly openWorldHint?: boolean
}

/**
 * A frozen, validated tool. `parameters` and `output.schema` are the canonical JSON Schema nodes:
 * everything downstream reads those, never the DSL.
 */
export interface ToolDefinition<Args = JsonObject, Value = JsonValue> {
  readonly name: string
  readonly title?: string
  readonly description: string
  /** Object-rooted canonical schema of the arguments. */
  readonly parameters: JsonSchemaObject
  readonly output?: ToolOutput<Args, Value>
  readonly annotations?: ToolAnnotations
  /** Default `exclusive`: a call runs alone unless the tool says it is safe to overlap. */
  readonly executionMode?: ExecutionMode | ((args: Args) => ExecutionMode)
  /** Deadline in ms; the runtime enforces it unless created with `enforceTimeouts: false`. */
  readonly timeoutMs?: number
  /**
   * The body enforces a deadline of its own (code mode's `run_code`: the PTC runtime's default and cap, nested waits
   * included), so `timeoutPolicy` leaves the call alone.
   */
  readonly ownsDeadline?: boolean
  /**
   * `false` keeps the tool listed in full when tool search is on; other tools then wait in the index until a
   * search finds them. @default true
   */
  readonly deferLoading?: boolean
  execute(args: Args, exec: ToolExecution): Value | Promise<Value>
  finalizeContent?(content: readonly ContentPart[], context: FinalizeContext<Args>): readonly ContentPart[]
  presentCall?(args: Args): CardIntent
  presentResult?(args: Args, value: Value): CardIntent
}

/** A definition of any argument and value types, as the registry stores them. */
// biome-ignore lint/suspicious/noExplicitAny: the registry stores definitions of every argument type
export type AnyToolDefinition = ToolDefinition<any, any>
