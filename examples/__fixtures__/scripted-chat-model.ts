import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models'
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages'
import type { ChatResult } from '@langchain/core/outputs'
import { convertToOpenAITool } from '@langchain/core/utils/function_calling'
import { type Script, stepOf, travelScript } from './travel-script.js'

/**
 * A LangChain chat model on LangChain's own `BaseChatModel` that follows the travel script (the round is the AI
 * messages it has been sent). It keeps every request and the tools bound to it, rendered as LangChain renders
 * them for OpenAI. (LangChain's own fakes answer text or one fixed set of calls, not a script of rounds.)
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly requests: BaseMessage[][] = []
  boundTools: ReturnType<typeof convertToOpenAITool>[] = []

  constructor(private readonly script: Script = travelScript) {
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
    const step = stepOf(messages.filter((message) => message.getType() === 'ai').length, this.script)
    const message =
      typeof step === 'string'
        ? new AIMessage(step)
        : new AIMessage({
            content: '',
            tool_calls: step.map((call) => ({
              type: 'tool_call' as const,
              id: call.id,
              name: call.name,
              args: call.arguments,
            })),
          })
    return { generations: [{ text: typeof step === 'string' ? step : '', message }] }
  }
}

/** The tool results one request carried, by call id, as text. */
export function langChainResultsIn(messages: readonly BaseMessage[] | undefined): Record<string, string> {
  return Object.fromEntries(
    (messages ?? []).flatMap((message) =>
      ToolMessage.isInstance(message) ? [[message.tool_call_id, String(message.content)]] : [],
    ),
  )
}
