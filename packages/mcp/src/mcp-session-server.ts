import { randomUUID } from 'node:crypto'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import type { AnyToolDefinition } from 'qilin-tools/internal/definition/tool-definition.js'
import type { JsonObject } from 'qilin-tools/internal/json-schema/json-value.js'
import type { ToolCall, ToolResult } from 'qilin-tools/internal/pipeline/call.js'
import type { ToolPrompt } from 'qilin-tools/internal/registry/tool-schema.js'
import { runForClient } from './call-origin.js'
import { hasStructuredOutput, toCallToolResult, toMcpTools } from './served-tools.js'

/** One scope of a runtime as `serveMcp` needs it: what the model sees, and the pipeline to run calls through. */
export interface ServedScope {
  prompt(): ToolPrompt
  get(name: string): AnyToolDefinition | undefined
  execute(call: ToolCall, options?: { readonly signal?: AbortSignal }): Promise<ToolResult>
}

export const SERVER_INFO = { name: 'qilin-tools', version: '0.1.0' }

/**
 * An MCP server for one client session. `tools/list` reads the scope afresh on every request; `tools/call` runs
 * through `execute`, so policy, guards, timeouts and logging apply, and every failure is an `isError` result.
 */
export function createSessionServer(scope: ServedScope, instructions?: string): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: true }, logging: {} },
    ...(instructions === undefined ? {} : { instructions }),
  })
  // Call ids must be unique across every served session: approvals find their client by them.
  const session = randomUUID().slice(0, 8)
  let calls = 0
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toMcpTools(scope.prompt(), (name) => scope.get(name)),
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    calls++
    const call: ToolCall = {
      id: `mcp-${session}-${calls}`,
      name: request.params.name,
      arguments: (request.params.arguments ?? {}) as JsonObject,
    }
    const origin = {
      server,
      requestId: extra.requestId,
      progressToken: request.params._meta?.progressToken,
      sendRequest: extra.sendRequest,
      sendNotification: extra.sendNotification,
    }
    const result = await runForClient(origin, call.id, () => scope.execute(call, { signal: extra.signal }))
    return toCallToolResult(result, hasStructuredOutput(scope.get(call.name)))
  })
  return server
}
