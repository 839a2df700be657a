import type { AnyToolDefinition, ToolExecution } from 'qilin-tools/internal/definition/tool-definition.js'
import { isToolError } from 'qilin-tools/internal/errors/tool-error.js'

/** Runs a tool body directly (no pipeline), as the toolkit's own tests do, for a tool built with options. */
export async function runTool(tool: AnyToolDefinition, args: Record<string, unknown>): Promise<unknown> {
  const execution = {
    signal: new AbortController().signal,
    callId: 'call-1',
    toolName: tool.name,
    agentId: undefined,
    correlationId: 'c-1',
  } as ToolExecution
  return await tool.execute(args, execution)
}

/** Runs a tool body that must throw a `ToolError`, returning its message. */
export async function toolRefusal(tool: AnyToolDefinition, args: Record<string, unknown>): Promise<string> {
  try {
    await runTool(tool, args)
  } catch (error) {
    if (isToolError(error)) return error.message
    throw error
  }
  throw new Error(`expected ${tool.name} to fail`)
}
