import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models'
import { AIMessage, type BaseMessage } from '@langchain/core/messages'
import type { ChatResult } from '@langchain/core/outputs'
import { convertToOpenAITool } from '@langchain/core/utils/function_calling'

/** One tool call the model makes: LangChain's `ToolCall` as a script writes it. */
export interface ScriptedToolCall {
  readonly id: string
  readonly name: string
  readonly arguments: unknown
}

/**
 * A LangChain chat model (on LangChain's own `BaseChatModel`) that makes the given calls in its first reply and
 * answers `done` once it has read tool results. It keeps every request's messages and the tools bound to it, as
 * LangChain's fake models render them (`convertToOpenAITool`).
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly requests: BaseMessage[][] = []
  boundTools: unknown[] = []

  constructor(private readonly calls: readonly ScriptedToolCall[]) {
    super({})
  }

  _llmType(): string {
    return 'scripted'
  }

  override bindTools(tools: BindToolsInput[]): this {
    this.boundTools = tools.map((bound) => convertToOpenAITool(bound))
    return this
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.requests.push(messages)
    const answered = this.calls.length === 0 || messages.some((message) => message.getType() === 'tool')
    const message = answered
      ? new AIMessage('done')
      : new AIMessage({
          content: '',
          tool_calls: this.calls.map((call) => ({
            type: 'tool_call' as const,
            id: call.id,
            name: call.name,
            args: call.arguments as Record<string, unknown>,
          })),
        })
    return { generations: [{ text: answered ? 'done' : '', message }] }
  }
}
