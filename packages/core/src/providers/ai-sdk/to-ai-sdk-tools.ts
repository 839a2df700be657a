import { type JSONSchema7, jsonSchema, type ModelMessage, type Tool, type ToolSet, tool } from 'ai'
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
 *
 * A definition's `needsApproval` becomes the AI SDK tool's, so the SDK emits its `tool-approval-request` part and
 * waits for the app's `tool-approval-response`. Once approved, the call still runs our whole pipeline (listeners,
 * guards, the tool's current schema) with that response standing in for our approver: it is not asked twice.
 */
export function toAISDKTools(runtime: ToolRuntime, scope?: string): ToolSet {
  const tools: Record<string, Tool<JsonObject, ToolResult>> = {}
  for (const schema of inScope(runtime, scope, (view) => view.prompt().tools)) {
    const needsApproval = inScope(runtime, scope, (view) => view.get(schema.name)?.needsApproval)
    tools[schema.name] = tool<JsonObject, ToolResult, Record<string, unknown>>({
      description: schema.description,
      // No `validate`: the pipeline validates against our schema and reports failures to the model as results.
      inputSchema: jsonSchema<JsonObject>(schema.parameters as unknown as JSONSchema7),
      ...(needsApproval === undefined || needsApproval === false
        ? {}
        : { needsApproval: needsApproval === true ? true : (input: JsonObject) => asksFor(needsApproval, input) }),
      execute: (input, { toolCallId, abortSignal, messages }) => {
        const approval = approvalOf(messages, toolCallId)
        return inScope(runtime, scope, (view) =>
          view.execute(
            { id: toolCallId, name: schema.name, arguments: input },
            {
              ...(abortSignal === undefined ? {} : { signal: abortSignal }),
              ...(approval === undefined ? {} : { approval }),
            },
          ),
        )
      },
      toModelOutput: ({ output }) => aiSdkModelOutput(output),
    })
  }
  return tools
}

/**
 * The SDK asks before our validation, on the model's raw input: a function that throws there asks the person (our
 * pipeline then judges the call again, on validated arguments, and denies if it still throws).
 */
async function asksFor(needsApproval: (args: JsonObject) => boolean | Promise<boolean>, input: JsonObject) {
  try {
    return (await needsApproval(input)) !== false
  } catch {
    return true
  }
}

/**
 * The app's approval of this call, if the SDK's messages hold one: a `tool-approval-request` for the call id in an
 * assistant message, answered by a `tool-approval-response` with `approved: true` in a tool message.
 */
function approvalOf(messages: readonly ModelMessage[] | undefined, toolCallId: string) {
  if (!Array.isArray(messages)) return undefined
  const requested = new Set<string>()
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue
    for (const part of message.content) {
      if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId) requested.add(part.approvalId)
    }
  }
  if (requested.size === 0) return undefined
  for (const message of messages) {
    if (message.role !== 'tool') continue
    for (const part of message.content) {
      if (part.type === 'tool-approval-response' && requested.has(part.approvalId) && part.approved === true) {
        return { approved: true, ...(typeof part.reason === 'string' ? { reason: part.reason } : {}) }
      }
    }
  }
  return undefined
}
