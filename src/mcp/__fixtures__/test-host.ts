import type { AnyToolDefinition } from '../../definition/tool-definition.js'
import { isToolError } from '../../errors/tool-error.js'
import type { JsonObject } from '../../json-schema/json-value.js'
import type { ToolCall, ToolResult } from '../../pipeline/call.js'

/** Stand-in until the pipeline lands: registers definitions and runs them the way `runtime.execute` settles calls. */
export function createTestHost() {
  const definitions = new Map<string, AnyToolDefinition>()
  return {
    definitions,
    register(definition: AnyToolDefinition) {
      if (definitions.has(definition.name)) throw new Error(`tool "${definition.name}" is already registered`)
      definitions.set(definition.name, definition)
      return { dispose: () => definitions.delete(definition.name) }
    },
    async execute(call: ToolCall, options: { signal?: AbortSignal } = {}): Promise<ToolResult> {
      const started = Date.now()
      const definition = definitions.get(call.name)
      const base = { id: call.id, name: call.name }
      if (definition === undefined) {
        const message = `unknown tool ${call.name}`
        return {
          ...base,
          ok: false,
          content: [{ type: 'text', text: `Error: ${message}` }],
          error: { code: 'UNKNOWN_TOOL', message },
          durationMs: 0,
        }
      }
      const args = Object.freeze(
        typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments,
      ) as JsonObject
      const exec = {
        signal: options.signal ?? new AbortController().signal,
        callId: call.id,
        toolName: call.name,
        agentId: undefined,
        correlationId: call.id,
      }
      try {
        const value = await definition.execute(args, exec)
        const content = definition.output?.render?.(args, value) ?? [{ type: 'text', text: JSON.stringify(value) }]
        return { ...base, ok: true, content, value, durationMs: Date.now() - started }
      } catch (error) {
        const info = isToolError(error) ? error.toInfo() : { code: 'TOOL_ERROR' as const, message: String(error) }
        return {
          ...base,
          ok: false,
          content: [{ type: 'text', text: `Error: ${info.message}` }],
          error: info,
          durationMs: Date.now() - started,
        }
      }
    },
  }
}
