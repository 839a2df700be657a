import type { JsonSchemaObject } from '../../json-schema/node.js'
import type { ToolSchema } from '../../registry/tool-schema.js'
import { type Candidate, projectTools } from '../project-tools.js'
import type { Projection } from '../projection-report.js'
import type { RenderBudget } from '../render-budget.js'
import { projectGeminiJsonSchema } from './gemini-json-schema.js'
import { type GeminiSchema, projectGeminiOpenApiSchema } from './gemini-openapi-schema.js'
import { GEMINI_NAME_RULE } from './gemini-rules.js'

/**
 * A Gemini `FunctionDeclaration`. Send them as `tools: [{ functionDeclarations }]`.
 * `parameters` and `parametersJsonSchema` are exclusive; a tool without parameters has neither.
 */
export interface GeminiFunctionDeclaration {
  name: string
  description: string
  parameters?: GeminiSchema
  parametersJsonSchema?: JsonSchemaObject
}

/** How `toGeminiTools` projects schemas: the render budget and the schema field declarations use. */
export interface GeminiToolsOptions {
  /** What one tool may cost (bytes, milliseconds) and what the whole tool array may take (default 1 MB); a tool
   * over it is left out alone, with the reason in the report. Default `defaultRenderBudget`. */
  readonly budget?: Partial<RenderBudget>

  /**
   * `parameters` (default): the OpenAPI subset every Gemini model takes; a tool it cannot express faithfully
   * (recursion, maps, open objects, untyped values) falls back to `parametersJsonSchema` alone.
   * `parametersJsonSchema`: JSON Schema for every tool.
   */
  readonly field?: 'parameters' | 'parametersJsonSchema'
  /** Append constraints the field cannot carry to the description (`{multipleOf: 5}`). Default true: they are
   * still enforced locally, and telling the model costs 0 to 8% more tokens (bench/provider-tokens.bench.ts) where a
   * rejected call costs a round trip. Anthropic's SDK appends them the same way in its own strict transform. */
  readonly describeDroppedConstraints?: boolean
}

/** Projects tool schemas for the Gemini API (`generateContent` function declarations). */
export function toGeminiTools(
  schemas: readonly ToolSchema[],
  options: GeminiToolsOptions = {},
): Projection<GeminiFunctionDeclaration> {
  const describeDropped = options.describeDroppedConstraints ?? true
  function* candidates(schema: ToolSchema, providerName: string): Iterable<Candidate<GeminiFunctionDeclaration>> {
    const base = { name: providerName, description: schema.description }
    const common = { strict: false, nullsMeanAbsent: false, degradedNote: 'sent as parametersJsonSchema' }
    if (options.field !== 'parametersJsonSchema') {
      const openApi = projectGeminiOpenApiSchema(schema.parameters, { describeDropped })
      const tool = openApi.schema === undefined ? base : { ...base, parameters: openApi.schema }
      yield { tool, context: openApi.context, sendableUnfaithful: false, ...common }
    }
    const json = projectGeminiJsonSchema(schema.parameters, { describeDropped })
    yield {
      tool: { ...base, parametersJsonSchema: json.schema },
      context: json.context,
      sendableUnfaithful: true,
      ...common,
    }
  }
  return projectTools(schemas, {
    provider: 'gemini',
    nameRule: GEMINI_NAME_RULE,
    candidates,
    ...(options.budget === undefined ? {} : { budget: options.budget }),
  })
}
