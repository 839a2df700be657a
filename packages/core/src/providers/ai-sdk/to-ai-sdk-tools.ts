import { type JSONSchema7, jsonSchema, type Tool, type ToolSet, tool } from 'ai'
import type { JsonObject } from '../../json-schema/json-value.js'
import type { ToolResult } from '../../pipeline/call.js'
import type { ToolRuntime } from '../../pipeline/tool-runtime.js'
import { aiSdkModelOutput } from '../framework/ai-sdk-model-output.js'
import { inScope } from '../framework/scope-view.js'

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
      toModelOutput: ({ output }) => aiSdkModelOutput(output),
    })
  }
  return tools
}
