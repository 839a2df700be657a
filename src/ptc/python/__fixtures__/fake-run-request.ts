import { ToolErrorCode } from '../../../errors/error-codes.js'
import type { JsonValue } from '../../../json-schema/json-value.js'
import type { ToolResult } from '../../../pipeline/call.js'
import type { PtcRunRequest } from '../../../pipeline/ptc-port.js'

export type FakeTool = (args: JsonValue) => JsonValue | Promise<JsonValue>

/**
 * A run request whose sub-calls go to plain functions instead of the pipeline, for runtime tests.
 * A function that throws settles as `TOOL_ERROR`; ids follow `<parent>:ptc:<n>`.
 */
export function fakeRunRequest(
  code: string,
  tools: Record<string, FakeTool> = {},
  overrides: Partial<PtcRunRequest> = {},
): PtcRunRequest & { readonly calls: { name: string; args: JsonValue }[] } {
  const calls: { name: string; args: JsonValue }[] = []
  const callId = overrides.callId ?? 'call-1'
  return {
    code,
    timeoutMs: 10_000,
    permissions: 'use_default',
    signal: new AbortController().signal,
    callId,
    toolNames: Object.keys(tools),
    calls,
    async callTool(name, args): Promise<ToolResult> {
      calls.push({ name, args })
      const id = `${callId}:ptc:${calls.length}`
      const tool = tools[name]
      try {
        if (tool === undefined) throw new Error(`unknown tool ${name}`)
        const value = await tool(args)
        return { id, name, ok: true, content: [{ type: 'text', text: JSON.stringify(value) }], value, durationMs: 0 }
      } catch (error) {
        const message = (error as Error).message
        const code = tool === undefined ? ToolErrorCode.UNKNOWN_TOOL : ToolErrorCode.TOOL_ERROR
        return {
          id,
          name,
          ok: false,
          content: [{ type: 'text', text: `Error: ${message}` }],
          error: { code, message },
          durationMs: 0,
        }
      }
    },
    ...overrides,
  }
}
