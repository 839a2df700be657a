import type { JsonSchemaObject } from '../../json-schema/node.js'
import type { ToolSchema } from '../../registry/tool-schema.js'
import { type Candidate, projectTools } from '../project-tools.js'
import type { Projection } from '../projection-report.js'
import type { RenderBudget } from '../render-budget.js'
import { ANTHROPIC_NAME_RULE, ANTHROPIC_STRICT_LIMITS } from './anthropic-rules.js'
import { projectAnthropicSchema } from './anthropic-schema.js'

/** `input_schema`: a JSON Schema rooted at an object (the SDK types `required` as a mutable list). */
export type AnthropicInputSchema = Omit<JsonSchemaObject, 'type' | 'required'> & { type: 'object'; required?: string[] }

/** A Messages API client tool (structurally `Tool` of @anthropic-ai/sdk). */
export interface AnthropicTool {
  name: string
  description: string
  input_schema: AnthropicInputSchema
  /** Present only when strict tool use is on for this tool. */
  strict?: true
}

/** How `toAnthropicTools` projects schemas: the render budget, strict tool use and constraints told in descriptions. */
export interface AnthropicToolsOptions {
  /** What one tool may cost (bytes, milliseconds) and what the whole tool array may take (default 1 MB); a tool
   * over it is left out alone, with the reason in the report. Default `defaultRenderBudget`. */
  readonly budget?: Partial<RenderBudget>

  /** Ask for strict tool use; tools without a faithful strict form, or over the request budget, go non-strict. Default false. */
  readonly strict?: boolean
  /** Append constraints strict mode cannot carry to the description (`{minLength: 1}`). Default true: they are
   * still enforced locally, and telling the model costs 0 to 8% more tokens (bench/provider-tokens.bench.ts) where a
   * rejected call costs a round trip. Anthropic's SDK appends them the same way in its own strict transform. */
  readonly describeDroppedConstraints?: boolean
}

/** Projects tool schemas for Anthropic's Messages API. */
export function toAnthropicTools(
  schemas: readonly ToolSchema[],
  options: AnthropicToolsOptions = {},
): Projection<AnthropicTool> {
  const describeDropped = options.describeDroppedConstraints ?? true
  const budget = { tools: 0, optionalParameters: 0, unionParameters: 0 }
  function* candidates(schema: ToolSchema, providerName: string): Iterable<Candidate<AnthropicTool>> {
    for (const strict of options.strict === true ? [true, false] : [false]) {
      const projection = projectAnthropicSchema(schema.parameters, { strict, describeDropped })
      if (strict && projection.context.faithful) {
        const next = {
          tools: budget.tools + 1,
          optionalParameters: budget.optionalParameters + projection.optionalParameters,
          unionParameters: budget.unionParameters + projection.unionParameters,
        }
        const over = (Object.keys(next) as (keyof typeof next)[]).filter(
          (key) => next[key] > ANTHROPIC_STRICT_LIMITS[key],
        )
        if (over.length > 0) projection.context.refuse('', `request-wide strict limit reached: ${over.join(', ')}`)
        else Object.assign(budget, next)
      }
      const tool: AnthropicTool = {
        name: providerName,
        description: schema.description,
        input_schema: projection.schema as AnthropicInputSchema,
      }
      yield {
        tool: strict ? { ...tool, strict: true } : tool,
        context: projection.context,
        strict,
        nullsMeanAbsent: false,
        degradedNote: 'strict tool use off for this tool',
        sendableUnfaithful: !strict,
      }
    }
  }
  return projectTools(schemas, {
    provider: 'anthropic',
    nameRule: ANTHROPIC_NAME_RULE,
    candidates,
    ...(options.budget === undefined ? {} : { budget: options.budget }),
  })
}
