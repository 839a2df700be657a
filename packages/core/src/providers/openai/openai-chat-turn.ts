import type { DeferredToolResult, ToolCall } from '../../pipeline/call.js'
import type { ProjectionReport } from '../projection-report.js'
import { argumentsTextOf, createCallIds, notAResponse, recordOf, recordsOf, textOf } from '../turn-calls.js'
import type { ReadTurn, TurnContext, TurnFormat } from '../turn-format.js'
import {
  fromOpenAIChatToolCalls,
  type OpenAIChatToolCall,
  type OpenAIChatToolMessage,
  type OpenAIChatUserMessage,
  toOpenAIChatMessages,
} from './openai-chat-messages.js'
import { type OpenAIChatTool, toOpenAITools } from './to-openai-tools.js'

/** What `runToolTurn` reads of a Chat Completions response (structurally the openai SDK's `ChatCompletion`). */
export interface OpenAIChatResponse {
  readonly choices: readonly {
    readonly message: {
      readonly content?: string | null
      readonly tool_calls?: readonly { readonly id: string; readonly type: string }[] | null
    }
  }[]
}

/** The assistant message of a turn as it is sent back: its text, refusal and function tool calls. */
export interface OpenAIChatAssistantMessage {
  role: 'assistant'
  content: string | null
  refusal?: string
  tool_calls?: OpenAIChatToolCall[]
}

/** The system message `toProviderRequest` writes for Chat Completions. */
export interface OpenAIChatSystemMessage {
  role: 'system'
  content: string
}

/** A message a Chat Completions turn appends: the assistant's, then one `tool` message per call, then images. */
export type OpenAIChatTurnMessage = OpenAIChatAssistantMessage | OpenAIChatToolMessage | OpenAIChatUserMessage

/** The Chat Completions request fields for the tool layer: the system message, and the tools when there are any. */
export interface OpenAIChatRequest {
  messages: OpenAIChatSystemMessage[]
  tools?: OpenAIChatTool[]
}

/** Chat Completions: the first choice's message; every `tool_calls` entry that is an object is one call. */
export const openAIChatTurn: TurnFormat<OpenAIChatTurnMessage, OpenAIChatRequest, OpenAIChatTool> = {
  project: (schemas) => toOpenAITools(schemas),
  read(response: unknown, context: TurnContext): ReadTurn<OpenAIChatTurnMessage> {
    const choices = recordOf(response)?.choices
    if (!Array.isArray(choices)) throw notAResponse('openai-chat', 'a choices array')
    if (choices.length === 0) return { assistant: [], calls: [], text: '' }
    const message = recordOf(recordOf(choices[0])?.message) ?? {}
    const idOf = createCallIds((index) => `call_${index}`)
    const toolCalls = recordsOf(message.tool_calls).map((entry, index): OpenAIChatToolCall => {
      const fn = recordOf(entry.function) ?? {}
      return {
        id: idOf(entry.id, index),
        type: 'function',
        function: { name: textOf(fn.name), arguments: argumentsTextOf(fn.arguments) },
      }
    })
    const text = textOf(message.content)
    const assistant: OpenAIChatAssistantMessage = {
      role: 'assistant',
      content: typeof message.content === 'string' ? message.content : null,
      ...(typeof message.refusal === 'string' ? { refusal: message.refusal } : {}),
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    }
    return { assistant: [assistant], calls: fromOpenAIChatToolCalls(toolCalls, context), text }
  },
  answer: (calls: readonly ToolCall[], results: readonly DeferredToolResult[], report: ProjectionReport) =>
    toOpenAIChatMessages(results, { calls, report }),
  request: (system, tools) => ({
    messages: system === '' ? [] : [{ role: 'system', content: system }],
    ...(tools.length > 0 ? { tools } : {}),
  }),
}
