import type { JsonObject, JsonValue } from '../../json-schema/json-value.js'
import type { ToolCall, ToolSuccess } from '../../pipeline/call.js'
import type { ToolRuntime } from '../../pipeline/tool-runtime.js'
import type { CardPresenter } from './inspect-server.js'
import type { CallRecord } from './session-model.js'

/**
 * Cards from the runtime's own `presentCall`/`presentResult`. The log keeps a result's content, not its value, so
 * the value is read back as the default rendering wrote it: one text part, JSON when it parses, else the text.
 */
export function runtimeCards(runtime: ToolRuntime): CardPresenter {
  return (record) => {
    const call = toolCall(record)
    if (call === undefined) return {}
    const presented = runtime.presentCall(call)
    const value = record.state === 'ok' ? renderedValue(record.content) : undefined
    const result =
      value === undefined
        ? undefined
        : runtime.presentResult(call, {
            id: call.id,
            name: call.name,
            ok: true,
            value,
            content: [],
            durationMs: 0,
          } as ToolSuccess)
    return { ...(presented === undefined ? {} : { call: presented }), ...(result === undefined ? {} : { result }) }
  }
}

function toolCall(record: CallRecord): ToolCall | undefined {
  const args = record.arguments
  if (typeof args === 'string') return { id: record.id, name: record.name, arguments: args }
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
    return { id: record.id, name: record.name, arguments: args as JsonObject }
  }
  return undefined
}

function renderedValue(content: unknown): JsonValue | undefined {
  if (!Array.isArray(content) || content.length !== 1) return undefined
  const [part] = content as { type?: unknown; text?: unknown }[]
  if (part?.type !== 'text' || typeof part.text !== 'string') return undefined
  try {
    return JSON.parse(part.text) as JsonValue
  } catch {
    return part.text
  }
}
