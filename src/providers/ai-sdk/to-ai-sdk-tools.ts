import { type JSONSchema7, jsonSchema, type Tool, type ToolSet, tool } from 'ai'
import type { AudioPart, ImagePart, TextPart } from '../../definition/content.js'
import type { JsonObject } from '../../json-schema/json-value.js'
import type { ToolResult } from '../../pipeline/call.js'
import type { ToolRuntime } from '../../pipeline/tool-runtime.js'
import { asTextOrMedia, contextParts } from '../results/result-parts.js'

/** What an AI SDK `toModelOutput` returns (its `ToolResultOutput`), for the variants we use. */
type ModelOutput =
  | { type: 'text'; value: string }
  | { type: 'error-text'; value: string }
  | {
      type: 'content'
      value: (
        | { type: 'text'; text: string }
        | { type: 'file'; data: { type: 'data'; data: string }; mediaType: string }
      )[]
    }

/**
 * The tools a runtime scope presents, as Vercel AI SDK tools. Each `execute` runs the call through our
 * pipeline (validation, guards, approval, timeouts, logging), so the AI SDK only carries it; the tool's output
 * is our `ToolResult` and `toModelOutput` shows the model exactly its content (images as file parts).
 * `scope` is an agent id: each call runs in that agent's scope as it is then. The tools hold no view of the agent,
 * so they never keep it alive; to pin one, pass `runtime.agent(id)` itself. Prompt sections
 * (`runtime.prompt().sections`) are not tools: put them in the system prompt.
 */
export function toAISDKTools(runtime: ToolRuntime, scope?: string): ToolSet {
  const tools: Record<string, Tool<JsonObject, ToolResult>> = {}
  for (const schema of inScope(runtime, scope, (view) => view.prompt().tools)) {
    tools[schema.name] = tool<JsonObject, ToolResult, Record<string, unknown>>({
      description: schema.description,
      // No `validate`: the pipeline validates against our schema and reports failures to the model as results.
      inputSchema: jsonSchema<JsonObject>(schema.parameters as unknown as JSONSchema7),
      execute: (input, { toolCallId, abortSignal }) =>
        inScope(runtime, scope, (view) =>
          view.execute(
            { id: toolCallId, name: schema.name, arguments: input },
            abortSignal === undefined ? {} : { signal: abortSignal },
          ),
        ),
      toModelOutput: ({ output }) => modelOutput(output),
    })
  }
  return tools
}

/** Uses the agent's view for one step and lets it go; a call it started settles all the same. */
function inScope<Value>(runtime: ToolRuntime, scope: string | undefined, use: (view: ToolRuntime) => Value): Value {
  if (scope === undefined) return use(runtime)
  using view = runtime.agent(scope)
  return use(view)
}

function modelOutput(result: ToolResult): ModelOutput {
  const parts = asTextOrMedia([...result.content, ...contextParts([result])])
  if (!result.ok) return { type: 'error-text', value: textOf(parts) }
  if (parts.every((part) => part.type === 'text')) return { type: 'text', value: textOf(parts) }
  return {
    type: 'content',
    value: parts.map((part) =>
      part.type === 'text'
        ? { type: 'text', text: part.text }
        : { type: 'file', data: { type: 'data', data: part.data }, mediaType: part.mimeType },
    ),
  }
}

function textOf(parts: readonly (TextPart | ImagePart | AudioPart)[]): string {
  return parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n\n')
}
