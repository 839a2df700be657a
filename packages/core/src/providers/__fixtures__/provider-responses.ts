import type { ProviderName } from '../turn-formats.js'

/** One call as a test writes it; any field may be missing or of the wrong type, as a hostile peer sends it. */
export interface RawCall {
  readonly id?: unknown
  readonly name?: unknown
  /** JSON text for the OpenAI formats; for Anthropic and Gemini, a string is parsed first when it is JSON. */
  readonly args?: unknown
}

/** `calls` and `text` as a response of `provider`, the way its API writes them. */
export function responseOf(provider: ProviderName, calls: readonly RawCall[], text = ''): unknown {
  switch (provider) {
    case 'openai-chat':
      return {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
            message: {
              role: 'assistant',
              content: text === '' ? null : text,
              ...(calls.length > 0
                ? {
                    tool_calls: calls.map((call) => ({
                      id: call.id,
                      type: 'function',
                      function: { name: call.name, arguments: call.args },
                    })),
                  }
                : {}),
            },
          },
        ],
      }
    case 'openai-responses':
      return {
        id: 'resp_1',
        output: [
          { type: 'reasoning', id: 'rs_1', summary: [] },
          ...(text === ''
            ? []
            : [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }]),
          ...calls.map((call) => ({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.args })),
        ],
      }
    case 'anthropic':
      return {
        id: 'msg_1',
        role: 'assistant',
        stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
        content: [
          ...(text === '' ? [] : [{ type: 'text', text }]),
          ...calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: parsed(call.args) })),
        ],
      }
    case 'gemini':
      return {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                ...(text === '' ? [] : [{ text }]),
                ...calls.map((call) => ({
                  functionCall: {
                    ...(call.id === undefined ? {} : { id: call.id }),
                    name: call.name,
                    args: parsed(call.args),
                  },
                  thoughtSignature: 'c2lnbmF0dXJl',
                })),
              ],
            },
          },
        ],
      }
  }
}

function parsed(args: unknown): unknown {
  if (typeof args !== 'string') return args
  try {
    return JSON.parse(args)
  } catch {
    return args
  }
}

/** Every provider, for tests that hold for each. */
export const PROVIDERS: readonly ProviderName[] = ['openai-chat', 'openai-responses', 'anthropic', 'gemini']
