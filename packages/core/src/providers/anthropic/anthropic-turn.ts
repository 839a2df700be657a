import type { ToolCall } from '../../pipeline/call.js'
import { createCallIds, notAResponse, recordOf, recordsOf, textOf } from '../turn-calls.js'
import type { ReadTurn, TurnContext, TurnFormat } from '../turn-format.js'
import {
  type AnthropicToolUseBlock,
  type AnthropicUserMessage,
  fromAnthropicToolUses,
  toAnthropicToolResults,
} from './anthropic-messages.js'
import { type AnthropicTool, toAnthropicTools } from './to-anthropic-tools.js'

/** What `runToolTurn` reads of a Messages API response (structurally `Message` of @anthropic-ai/sdk). */
export interface AnthropicResponse {
  readonly content: readonly { readonly type: string }[]
}

/** The assistant message of a turn as it is sent back: the response's content blocks. */
export interface AnthropicAssistantMessage<Block = { readonly type: string }> {
  role: 'assistant'
  content: Block[]
}

/** A message an Anthropic turn appends: the assistant's, then the user message of `tool_result` blocks. */
export type AnthropicTurnMessage<Block = { readonly type: string }> =
  | AnthropicAssistantMessage<Block>
  | AnthropicUserMessage

/** The Messages request fields for the tool layer: `system`, and the tools when there are any. */
export interface AnthropicRequest {
  system?: string
  tools?: AnthropicTool[]
}

/** Anthropic: every content block that is an object is sent back; each `tool_use` block is one call. */
export const anthropicTurn: TurnFormat<AnthropicTurnMessage<object>, AnthropicRequest, AnthropicTool> = {
  project: (schemas) => toAnthropicTools(schemas),
  read(response: unknown, context: TurnContext): ReadTurn<AnthropicTurnMessage<object>> {
    const content = recordOf(response)?.content
    if (!Array.isArray(content)) throw notAResponse('anthropic', 'a content array')
    const idOf = createCallIds((index) => `toolu_${index}`)
    const texts: string[] = []
    const calls: ToolCall[] = []
    let index = 0
    const blocks = recordsOf(content).map((block): object => {
      if (block.type === 'text') texts.push(textOf(block.text))
      if (block.type !== 'tool_use') return block
      const use: AnthropicToolUseBlock = {
        ...block,
        type: 'tool_use',
        id: idOf(block.id, index++),
        name: textOf(block.name),
        input: recordOf(block.input) ?? {},
      }
      // The call reads the input as sent (the pipeline refuses one that is not an object); the API takes back only objects.
      const asked: AnthropicToolUseBlock = { ...use, input: block.input }
      calls.push(...fromAnthropicToolUses([asked], context))
      return use
    })
    const assistant: AnthropicAssistantMessage<object>[] =
      blocks.length === 0 ? [] : [{ role: 'assistant', content: blocks }]
    return { assistant, calls, text: texts.join('') }
  },
  answer: (calls, results, report) => [toAnthropicToolResults(results, { calls, report })],
  request: (system, tools) => ({
    ...(system === '' ? {} : { system }),
    ...(tools.length > 0 ? { tools } : {}),
  }),
}
