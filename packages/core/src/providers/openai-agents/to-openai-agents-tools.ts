import { type FunctionTool, type RunContext, tool } from '@openai/agents'
import type { ToolResult } from '../../pipeline/call.js'
import type { ExecuteOptions, ToolRuntime } from '../../pipeline/tool-runtime.js'
import type { ToolSchema } from '../../registry/tool-schema.js'
import { frameworkArguments } from '../framework/framework-arguments.js'
import { mayNeedApproval, needsApprovalOf } from '../framework/needs-approval.js'
import { inScope } from '../framework/scope-view.js'
import { isAllText, shownParts, shownText } from '../framework/shown-result.js'
import { dataUrl } from '../results/result-parts.js'

/** What one of our tools returns to the OpenAI Agents runner: the text, or text and images in order. */
export type OpenAIAgentsToolOutput = string | ({ type: 'text'; text: string } | { type: 'image'; image: string })[]

/** The parameters schema type the runner takes (its `JsonObjectSchema`, which the package does not export). */
type AgentsParameters = Extract<Parameters<typeof tool>[0], { strict: false }>['parameters']

/** What the runner hands `execute` besides the input: the call item and its signal (`ToolCallDetails`). */
type CallDetails = Parameters<FunctionTool['invoke']>[2]

/** Who the session log and the `tools/approval` observers name for an approval the runner's interruption gave. */
const approvedBy = 'openai-agents'

/**
 * The tools a runtime scope presents (`prompt().tools`: `run_code` in code mode), as OpenAI Agents function tools
 * (`tool()` from `@openai/agents`). Each call runs through our pipeline with the runner's signal, and the model reads
 * exactly what the pipeline produced: `Error: <message>` for a failure. A definition with `needsApproval` makes the
 * runner interrupt for approval; once the runner approved, our approver is not asked again (guards still run).
 * `scope` is an agent id, looked up on each call, so the tools never keep the agent alive.
 */
export function toOpenAIAgentsTools(
  runtime: ToolRuntime,
  scope?: string,
): FunctionTool<unknown, AgentsParameters, OpenAIAgentsToolOutput>[] {
  return inScope(runtime, scope, (view) =>
    view.prompt().tools.map((schema) => agentsTool(runtime, scope, view, schema)),
  )
}

function agentsTool(runtime: ToolRuntime, scope: string | undefined, view: ToolRuntime, schema: ToolSchema) {
  const name = schema.name
  const definition = view.get(name)
  // The runner interrupts only for a tool with `needsApproval`, so only such a tool can have an approval to find,
  // and the runner's lookup costs about 10 µs a call (bench/adapters.bench.ts).
  const approvable = mayNeedApproval(definition)
  const execute = (input: unknown, context?: RunContext, details?: CallDetails) => {
    const callId = details?.toolCall?.callId ?? ''
    // The model's own text when the runner has it: the pipeline reads it under its limits and words any failure.
    const raw = details?.toolCall?.arguments
    const call = { id: callId, name, arguments: typeof raw === 'string' ? raw : frameworkArguments(input) }
    const approved = approvable && context?.isToolApproved({ toolName: name, callId }) === true
    const options: ExecuteOptions = {
      ...(details?.signal && { signal: details.signal }),
      ...(approved && { approval: { approved: true, decidedBy: approvedBy } }),
    }
    return inScope(runtime, scope, (current) => current.execute(call, options)).then(toolOutput)
  }
  return tool({
    name,
    description: schema.description,
    parameters: schema.parameters as unknown as AgentsParameters,
    // Our schemas are not held to OpenAI's strict subset; the pipeline validates every call against the whole schema.
    strict: false,
    ...(approvable && {
      needsApproval: async (_context: RunContext, input: unknown) => needsApprovalOf(definition, input),
    }),
    execute,
  })
}

function toolOutput(result: ToolResult): OpenAIAgentsToolOutput {
  const parts = shownParts(result)
  if (isAllText(parts)) return shownText(parts)
  return parts.map((part) =>
    part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image', image: dataUrl(part) },
  )
}
