import type { JsonValue } from '../json-schema/json-value.js'
import type { InferArgs, InferValue } from '../schema/infer.js'
import type { ParametersSpec, ValueSpec } from '../schema/value-spec.js'
import type { ContentPart } from './content.js'
import type { CardIntent, ExecutionMode, FinalizeContext, ToolAnnotations, ToolExecution } from './tool-definition.js'

/** `true`, or a function of the validated arguments saying whether this call needs approval. */
export type NeedsApproval<Args> = boolean | ((args: Args) => boolean | Promise<boolean>)

/** The value `execute` returns: typed by `output.schema`, any JSON value without one. */
export type OutputValue<Output> = [Output] extends [undefined] ? JsonValue : InferValue<Output>

/** The schema an author declares for a tool's value, and how that value is rendered as content. */
export interface ToolOutputConfig<Args, Output> {
  readonly schema: Output
  /** Default: one text part holding the value as JSON (a string value as itself). */
  render?(args: Args, value: OutputValue<Output>): readonly ContentPart[]
}

/**
 * What an author passes to `defineTool`: specs where the definition holds canonical JSON Schema.
 * `Returned` is what `execute` actually returns: its own type parameter, so literal return values keep their
 * literal types; `ReturnCheck` then holds it against the output schema.
 */
export interface ToolConfig<
  Parameters extends ParametersSpec,
  Output extends ValueSpec | undefined,
  Returned = OutputValue<Output>,
> {
  readonly name: string
  readonly title?: string
  readonly description: string
  readonly parameters: Parameters
  readonly output?: ToolOutputConfig<InferArgs<Parameters>, Output>
  readonly annotations?: ToolAnnotations
  readonly executionMode?: ExecutionMode | ((args: InferArgs<Parameters>) => ExecutionMode)
  readonly timeoutMs?: number
  /**
   * Running a call twice with the same arguments has the effect of running it once, so `retryPolicy` may retry it.
   * @default false (`annotations.idempotentHint` counts the same)
   */
  readonly idempotent?: boolean
  /** UTF-8 bytes of text one result may show the model; a longer one is cut with a note. @default the runtime's */
  readonly maxResultBytes?: number
  /** `false` keeps the tool listed in full when tool search is on. @default true */
  readonly deferLoading?: boolean
  /**
   * Whether a call needs a person's approval before it runs: `true`, or a function of the validated arguments (sync
   * or async). A call that needs it asks the approver, as a listener's `ask` does (or, under `approvals: 'defer'`,
   * waits for `runtime.decide`); a function that throws denies the call. @default false
   */
  readonly needsApproval?: NeedsApproval<InferArgs<Parameters>>
  execute(args: InferArgs<Parameters>, exec: ToolExecution): Returned | Promise<Returned>
  finalizeContent?(
    content: readonly ContentPart[],
    context: FinalizeContext<InferArgs<Parameters>>,
  ): readonly ContentPart[]
  presentCall?(args: InferArgs<Parameters>): CardIntent
  presentResult?(args: InferArgs<Parameters>, value: OutputValue<Output>): CardIntent
}

/** Fails the `execute` key, showing the expected value type, when `execute` returns something else. */
export type ReturnCheck<Output, Returned> = [Returned] extends [OutputValue<Output>]
  ? unknown
  : { readonly execute: { readonly 'execute must return the value output.schema describes': OutputValue<Output> } }
