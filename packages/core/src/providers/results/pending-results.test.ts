import { describe, expect, it } from 'vitest'
import type { DeferredToolResult, ToolCall } from '../../pipeline/call.js'
import { pendingFor } from '../__fixtures__/turn-runtime.js'
import { readAnthropicToolResults, toAnthropicToolResults } from '../anthropic/anthropic-messages.js'
import { readGeminiFunctionResponses, toGeminiFunctionResponses } from '../gemini/gemini-messages.js'
import { readOpenAIChatResults, toOpenAIChatMessages } from '../openai/openai-chat-messages.js'
import { readOpenAIResponsesResults, toOpenAIResponsesItems } from '../openai/openai-responses-items.js'

const calls: ToolCall[] = [
  { id: 'call-1', name: 'delete_file', arguments: '{"path":"a.txt"}' },
  { id: 'call-2', name: 'add', arguments: '{"a":1,"b":2}' },
]
const results: DeferredToolResult[] = [
  pendingFor(calls[0]!),
  { id: 'call-2', name: 'add', ok: true, value: 3, content: [{ type: 'text', text: '3' }], durationMs: 1 },
]
const awaiting = "The call to delete_file is awaiting a person's approval."

describe('a pending approval where a result must be sent', () => {
  it('OpenAI Chat Completions: a tool message of its own text', () => {
    const messages = toOpenAIChatMessages(results, { calls })
    expect(messages).toMatchSnapshot()
    expect(readOpenAIChatResults(messages)[0]?.content).toEqual([{ type: 'text', text: awaiting }])
  })

  it('OpenAI Responses: a function_call_output of its own text', () => {
    const items = toOpenAIResponsesItems(results, { calls })
    expect(items).toMatchSnapshot()
    expect(readOpenAIResponsesResults(items)[0]?.content).toEqual([{ type: 'text', text: awaiting }])
  })

  it('Anthropic: a tool_result of its own text, not flagged as an error', () => {
    const message = toAnthropicToolResults(results, { calls })
    expect(message).toMatchSnapshot()
    expect(readAnthropicToolResults(message.content)[0]).toEqual({
      id: 'call-1',
      isError: false,
      content: [{ type: 'text', text: awaiting }],
    })
  })

  it('Gemini: a functionResponse with its text as output, not error', () => {
    const content = toGeminiFunctionResponses(results, { calls })
    expect(content).toMatchSnapshot()
    expect(readGeminiFunctionResponses(content.parts, calls)[0]).toEqual({
      id: 'call-1',
      isError: false,
      content: [{ type: 'text', text: awaiting }],
    })
  })
})
