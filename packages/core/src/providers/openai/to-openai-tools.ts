import type { JsonSchemaObject } from '../../json-schema/node.js'
import type { ToolSchema } from '../../registry/tool-schema.js'
import { type Candidate, projectTools } from '../project-tools.js'
import type { Projection } from '../projection-report.js'
import type { RenderBudget } from '../render-budget.js'
import { OPENAI_MAX_TOOLS, OPENAI_NAME_RULE } from './openai-rules.js'
import { projectOpenAISchema } from './openai-schema.js'

/** A Chat Completions `tools[]` entry (structurally `ChatCompletionFunctionTool` of the openai SDK). */
export interface OpenAIChatTool {
  type: 'function'
  function: { name: string; description: string; parameters: JsonSchemaObject; strict: boolean }
}

/** A Responses API `tools[]` entry (structurally `FunctionTool` of the openai SDK). */
export interface OpenAIResponsesTool {
  type: 'function'
  name: string
  description: string
  parameters: JsonSchemaObject
  /** Always explicit: when omitted, Responses tries strict mode on its own. */
  strict: boolean
}

/** How `toOpenAITools` projects schemas: the render budget, strict mode and which API the tools are for. */
export interface OpenAIToolsOptions {
  /** What one tool may cost (bytes, milliseconds) and what the whole tool array may take (default 1 MB); a tool
   * over it is left out alone, with the reason in the report. Default `defaultRenderBudget`. */
  readonly budget?: Partial<RenderBudget>

  /** Ask for strict mode; tools whose schema has no faithful strict form are sent non-strict. Default false. */
  readonly strict?: boolean
  /** Default `chat`. */
  readonly api?: 'chat' | 'responses'
  /** Append constraints strict mode cannot carry to the description (`{minLength: 1}`). Default true: they are
   * still enforced locally, and telling the model costs 0 to 8% more tokens (bench/provider-tokens.bench.ts) where a
   * rejected call costs a round trip. Anthropic's SDK appends them the same way in its own strict transform. */
  readonly describeDroppedConstraints?: boolean
}

export function toOpenAITools(
  schemas: readonly ToolSchema[],
  options: OpenAIToolsOptions & { readonly api: 'responses' },
): Projection<OpenAIResponsesTool>
export function toOpenAITools(
  schemas: readonly ToolSchema[],
  options?: OpenAIToolsOptions & { readonly api?: 'chat' },
): Projection<OpenAIChatTool>
/**
 * Projects tool schemas for OpenAI. In strict mode optional properties become required-and-nullable:
 * pass the calls through `fromOpenAIChatToolCalls`/`fromOpenAIResponsesCalls` with the report (or call
 * `stripStrictNulls`) so our validator sees absent properties, not nulls.
 */
export function toOpenAITools(
  schemas: readonly ToolSchema[],
  options: OpenAIToolsOptions = {},
): Projection<OpenAIChatTool> | Projection<OpenAIResponsesTool> {
  const api = options.api ?? 'chat'
  const describeDropped = options.describeDroppedConstraints ?? true
  function* candidates(
    schema: ToolSchema,
    providerName: string,
  ): Iterable<Candidate<OpenAIChatTool | OpenAIResponsesTool>> {
    const modes = options.strict === true ? [true, false] : [false]
    for (const strict of modes) {
      const projection = projectOpenAISchema(schema.parameters, { strict, describeDropped })
      const fields = { name: providerName, description: schema.description, parameters: projection.schema, strict }
      yield {
        tool: api === 'chat' ? { type: 'function', function: fields } : { type: 'function', ...fields },
        context: projection.context,
        strict,
        nullsMeanAbsent: projection.nullsMeanAbsent,
        degradedNote: 'strict mode off for this tool',
        sendableUnfaithful: !strict,
      }
    }
  }
  return projectTools(schemas, {
    provider: 'openai',
    nameRule: OPENAI_NAME_RULE,
    candidates,
    maxTools: OPENAI_MAX_TOOLS,
    ...(options.budget === undefined ? {} : { budget: options.budget }),
  }) as Projection<OpenAIChatTool> | Projection<OpenAIResponsesTool>
}
