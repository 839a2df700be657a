import { type FunctionTool, type RunContext, tool } from '@openai/agents'
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js'
import { describeValue } from '../../json-schema/describe-value.js'
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
 * Who answers a call that needs approval: `'runner'` makes the runner interrupt (resolve its `interruptions` with
 * `state.approve` or `state.reject` and run again); `'runtime'` leaves it to our pipeline inside the call (the
 * runtime's `approve`, or a pending result under `approvals: 'defer'`), so the runner never interrupts.
 */
export type OpenAIAgentsApprovals = 'runner' | 'runtime'

/** Options of `toOpenAIAgentsTools`: the agent whose view to present, and who answers approvals. */
export interface OpenAIAgentsToolsOptions {
  /** An agent id, looked up on each call, so the tools never keep the agent alive. @default the whole runtime */
  readonly scope?: string
  /** @default 'runner' */
  readonly approvals?: OpenAIAgentsApprovals
}

/**
 * The tools a runtime scope presents (`prompt().tools`: `run_code` in code mode), as OpenAI Agents function tools
 * (`tool()` from `@openai/agents`). Each call runs through our pipeline with the runner's signal, and the model reads
 * exactly what the pipeline produced: `Error: <message>` for a failure. By default a definition with `needsApproval`
 * makes the runner interrupt for approval, and once the runner approved, our approver is not asked again (guards
 * still run); `approvals: 'runtime'` lets our approver answer instead. A string is the `scope` alone.
 */
export function toOpenAIAgentsTools(
  runtime: ToolRuntime,
  options: string | OpenAIAgentsToolsOptions = {},
): FunctionTool<unknown, AgentsParameters, OpenAIAgentsToolOutput>[] {
  const { scope, approvals = 'runner' } = typeof options === 'string' ? { scope: options } : options
  if (approvals !== 'runner' && approvals !== 'runtime') {
    throw new InvalidArgumentError(
      `toOpenAIAgentsTools: approvals must be 'runner' or 'runtime', got ${describeValue(approvals)}`,
    )
  }
  return inScope(runtime, scope, (view) =>
    view.prompt().tools.map((schema) => agentsTool(runtime, scope, view, schema, approvals === 'runner')),
  )
}

function agentsTool(
  runtime: ToolRuntime,
  scope: string | undefined,
  view: ToolRuntime,
  schema: ToolSchema,
  runnerApproves: boolean,
) {
  const name = schema.name
  // The runner interrupts only for a tool with `needsApproval`, so only such a tool can have an approval to find,
  // and the runner's lookup costs about 10 µs a call (bench/adapters.bench.ts).
  const definition = view.get(name)
  const approvable = runnerApproves && mayNeedApproval(definition)
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
