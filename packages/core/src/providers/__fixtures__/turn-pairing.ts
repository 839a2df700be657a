import type { ProviderName } from '../turn-formats.js'

type Loose = Record<string, unknown> & { [key: string]: unknown }

/**
 * The calls a turn's assistant side asks and the results its answer gives, as the provider pairs them: by id, and
 * for Gemini calls without one by position and name.
 */
export function pairingOf(
  provider: ProviderName,
  messages: readonly unknown[],
): { asked: string[]; answered: string[] } {
  const list = messages as Loose[]
  switch (provider) {
    case 'openai-chat':
      return {
        asked: list.flatMap((message) =>
          ((message.tool_calls as Loose[] | undefined) ?? []).map((call) => String(call.id)),
        ),
        answered: list.flatMap((message) => (message.role === 'tool' ? [String(message.tool_call_id)] : [])),
      }
    case 'openai-responses':
      return {
        asked: list.flatMap((item) => (item.type === 'function_call' ? [String(item.call_id)] : [])),
        answered: list.flatMap((item) => (item.type === 'function_call_output' ? [String(item.call_id)] : [])),
      }
    case 'anthropic': {
      const blocks = (role: string) =>
        list.flatMap((message) => (message.role === role ? (message.content as Loose[]) : []))
      return {
        asked: blocks('assistant').flatMap((block) => (block.type === 'tool_use' ? [String(block.id)] : [])),
        answered: blocks('user').flatMap((block) => (block.type === 'tool_result' ? [String(block.tool_use_id)] : [])),
      }
    }
    case 'gemini': {
      const parts = (role: string, key: string) =>
        list
          .flatMap((content) => (content.role === role ? (content.parts as Loose[]) : []))
          .flatMap((part) => (key in part ? [part[key] as Loose] : []))
          .map((call, index) => (typeof call.id === 'string' ? call.id : `#${index}:${String(call.name)}`))
      return { asked: parts('model', 'functionCall'), answered: parts('user', 'functionResponse') }
    }
  }
}
