import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { CALLS, PIXEL, RESULTS } from '../__fixtures__/calls-and-results.js'
import {
  fromOpenAIChatToolCalls,
  readOpenAIChatResults,
  toOpenAIChatMessages,
  toOpenAIChatToolCalls,
} from './openai-chat-messages.js'
import { toOpenAITools } from './to-openai-tools.js'

describe('OpenAI chat tool calls and tool messages', () => {
  it('round-trips parallel calls, with arguments as the model wrote them', () => {
    const toolCalls: ChatCompletionMessageToolCall[] = toOpenAIChatToolCalls(CALLS)
    expect(fromOpenAIChatToolCalls(toolCalls)).toEqual(
      CALLS.map((call) => ({
        ...call,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      })),
    )
  })

  it('answers every call with one tool message, then attaches images and contexts in one user message', () => {
    const messages: ChatCompletionMessageParam[] = toOpenAIChatMessages(RESULTS, { calls: CALLS })
    expect(messages.map((message) => message.role)).toEqual(['tool', 'tool', 'tool', 'tool', 'tool', 'user'])
    expect(messages).toMatchSnapshot()
    const read = readOpenAIChatResults(toOpenAIChatMessages(RESULTS, { calls: CALLS }))
    expect(read.map((result) => result.id)).toEqual(CALLS.map((call) => call.id))
    expect(read[1]?.content).toEqual([
      { type: 'text', text: 'Captured the page.\n\n[image (image/png) attached in the next user message]' },
      { type: 'image', mimeType: 'image/png', data: PIXEL },
    ])
    expect(read[2]?.content).toEqual([{ type: 'text', text: 'Error: ENOENT: missing.txt' }])
  })

  it('maps renamed tools back and strips strict-mode nulls with the projection report', () => {
    const schemas = [
      {
        name: 'read file',
        description: 'Reads a file',
        parameters: {
          type: 'object' as const,
          properties: { path: { type: 'string' as const }, limit: { type: 'integer' as const } },
          required: ['path'],
        },
      },
    ]
    const { report } = toOpenAITools(schemas, { strict: true })
    const calls = fromOpenAIChatToolCalls(
      [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a","limit":null}' } }],
      { report, schemas },
    )
    expect(calls).toEqual([{ id: 'c1', name: 'read file', arguments: '{"path":"a"}' }])
    const broken = fromOpenAIChatToolCalls(
      [{ id: 'c2', type: 'function', function: { name: 'read_file', arguments: '{"path":' } }],
      {
        report,
        schemas,
      },
    )
    expect(broken).toEqual([{ id: 'c2', name: 'read file', arguments: '{"path":' }])
  })
})
