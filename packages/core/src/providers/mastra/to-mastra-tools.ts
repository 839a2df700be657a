import { createTool, type Tool, type ToolExecutionContext } from '@mastra/core/tools'
import type { ToolResult } from '../../pipeline/call.js'
import type { ExecuteOptions, ToolRuntime } from '../../pipeline/tool-runtime.js'
import type { ToolSchema } from '../../registry/tool-schema.js'
import { aiSdkModelOutput } from '../framework/ai-sdk-model-output.js'
import { frameworkArguments } from '../framework/framework-arguments.js'
import { passThroughSchema } from '../framework/pass-through-schema.js'
import { inScope } from '../framework/scope-view.js'

/** A Mastra tool whose output is our `ToolResult`: the host reads the code, the model reads `toModelOutput`. */
export type QilinMastraTool = Tool<unknown, ToolResult>

/**
 * The tools a runtime scope presents (`prompt().tools`: `run_code` in code mode), as Mastra tools (`createTool`),
 * keyed by name as `new Agent({ tools })` takes them. Each call runs through our pipeline with the agent's abort
 * signal; our pipeline is the one validator (Mastra's check accepts everything), and the model reads exactly our
 * content: `Error: …` as error text for a failure. `scope` is an agent id, looked up on each call.
 */
export function toMastraTools(runtime: ToolRuntime, scope?: string): Record<string, QilinMastraTool> {
  const tools: Record<string, QilinMastraTool> = {}
  for (const schema of inScope(runtime, scope, (view) => view.prompt().tools))
    tools[schema.name] = mastraTool(runtime, scope, schema)
  return tools
}

function mastraTool(runtime: ToolRuntime, scope: string | undefined, schema: ToolSchema): QilinMastraTool {
  const name = schema.name
  const execute = (input: unknown, context?: ToolExecutionContext) => {
    const call = { id: context?.agent?.toolCallId ?? '', name, arguments: frameworkArguments(input) }
    const signal = context?.abortSignal
    const options: ExecuteOptions = signal === undefined ? {} : { signal }
    return inScope(runtime, scope, (view) => view.execute(call, options))
  }
  return createTool({
    id: name,
    description: schema.description,
    inputSchema: passThroughSchema(schema.parameters),
    execute,
    toModelOutput: (output) => aiSdkModelOutput(output as ToolResult),
  }) as unknown as QilinMastraTool
}
