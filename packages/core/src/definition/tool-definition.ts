import type { JsonObject, JsonValue } from '../json-schema/json-value.js'
import type { JsonSchemaNode, JsonSchemaObject } from '../json-schema/node.js'
import type { StandardSchemaLike } from '../schema/standard-schema.js'
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
  /**
   * The Standard Schema given as the whole `parameters`: the runtime runs its own `~standard.validate` on each
   * call's arguments in place of `parameters`, and its parsed value is what the approver and `execute` see.
   */
  readonly standardParameters?: StandardSchemaLike
  /**
   * What `parameters` and `output.schema` cannot show the model: rules a Standard Schema library enforces (or, nested
   * in a DSL spec, does not) beyond its JSON Schema, each naming where it sits. Absent when there is none.
   */
  readonly schemaNotes?: readonly string[]
  /**
   * Whether a call may overlap others. Without it, `parallel` when `annotations.readOnlyHint` is true, else
   * `exclusive`: a call runs alone unless the tool says it is safe to overlap.
   */
  readonly executionMode?: ExecutionMode | ((args: Args) => ExecutionMode)
  /**
   * Running a call twice with the same arguments has the effect of running it once, so `retryPolicy` may retry it
   * (as it may any call whose execution mode is `parallel`). `annotations.idempotentHint: true` counts the same.
   */
  readonly idempotent?: boolean
  /** UTF-8 bytes of text one result may show the model; overrides the runtime's `maxResultBytes`. */
  readonly maxResultBytes?: number
  /** Deadline in ms; the runtime enforces it unless created with `enforceTimeouts: false`. */
  readonly timeoutMs?: number
  /**
   * The body enforces a deadline of its own (code mode's `run_code`: the PTC runtime's default and cap, nested waits
   * included), so `timeoutPolicy` leaves the call alone.
   */
  readonly ownsDeadline?: boolean
  /**
   * `execute` resolves to the call's whole outcome rather than a value to check and render: `{ ok: true, value,
   * content }` or `{ ok: false, error }`, either with `metadata` (code mode's `run_code`, whose program renders its
   * own result). An answer of another shape fails the call as `TOOL_ERROR`.
   */
  readonly returnsOutcome?: boolean
  /**
   * `false` keeps the tool listed in full when tool search is on; other tools then wait in the index until a
   * search finds them. @default true
   */
  readonly deferLoading?: boolean
  /** Whether a call needs approval: `true`, or a function of the validated arguments. */
  readonly needsApproval?: boolean | ((args: Args) => boolean | Promise<boolean>)
  execute(args: Args, exec: ToolExecution): Value | Promise<Value>
  finalizeContent?(content: readonly ContentPart[], context: FinalizeContext<Args>): readonly ContentPart[]
  presentCall?(args: Args): CardIntent
  presentResult?(args: Args, value: Value): CardIntent
}

/** A definition of any argument and value types, as the registry stores them. */
// biome-ignore lint/suspicious/noExplicitAny: the registry stores definitions of every argument type
export type AnyToolDefinition = ToolDefinition<any, any>
