import type { ContentPart } from '../../definition/content.js'
import { ToolErrorCode } from '../../errors/error-codes.js'
import type { JsonValue } from '../../json-schema/json-value.js'
import type { ToolResult } from '../../pipeline/call.js'
import type { PtcRunRequest } from '../ptc-port.js'

export type FakeTool = (
  args: JsonValue,
) => JsonValue | Promise<JsonValue> | { content: ContentPart[]; value: JsonValue }

/**
 * A run request whose sub-calls go to plain functions instead of the pipeline, for runtime unit tests.
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
      if (tool === undefined) {
        const message = `unknown tool ${name}`
        return {
          id,
          name,
          ok: false,
          content: [{ type: 'text', text: `Error: ${message}` }],
          error: { code: ToolErrorCode.UNKNOWN_TOOL, message },
          durationMs: 0,
        }
      }
      try {
        const produced = await tool(args)
        if (
          typeof produced === 'object' &&
          produced !== null &&
          'content' in produced &&
          'value' in produced &&
          !Array.isArray(produced)
        ) {
          const { content, value } = produced as { content: ContentPart[]; value: JsonValue }
          return { id, name, ok: true, content, value, durationMs: 0 }
        }
        const value = produced as JsonValue
        return { id, name, ok: true, content: [{ type: 'text', text: JSON.stringify(value) }], value, durationMs: 0 }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        return {
          id,
          name,
          ok: false,
          content: [{ type: 'text', text: `Error: ${message}` }],
          error: { code: ToolErrorCode.TOOL_ERROR, message },
          durationMs: 0,
        }
      }
    },
    ...overrides,
  }
}
