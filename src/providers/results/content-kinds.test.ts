import { describe, expect, it } from 'vitest'
import type { ContentPart } from '../../definition/content.js'
import type { ToolResult } from '../../pipeline/call.js'
import { toAnthropicToolResults } from '../anthropic/anthropic-messages.js'
import { toGeminiFunctionResponses } from '../gemini/gemini-messages.js'
import { toOpenAIChatMessages } from '../openai/openai-chat-messages.js'
import { toOpenAIResponsesItems } from '../openai/openai-responses-items.js'

const audio = { type: 'audio', data: 'UklGRiYAAAA=', mimeType: 'audio/wav' } as const
const content: readonly ContentPart[] = [
  { type: 'text', text: 'found it' },
  audio,
  { type: 'resource', resource: { uri: 'file:///a.md', text: '# A' } },
  { type: 'resource_link', uri: 'file:///b.csv', name: 'b.csv' },
]
const result: ToolResult = { ok: true, id: 'call-1', name: 'find', value: 'found it', content, durationMs: 1 }
const fallback =
  'found it\n\n[audio audio/wav, 8 bytes]\n\n[resource file:///a.md]\n# A\n\n[resource link b.csv file:///b.csv]'

describe('content kinds in provider results', () => {
  it('gives OpenAI Chat Completions and Responses the fallback text', () => {
    expect(toOpenAIChatMessages([result])).toEqual([{ role: 'tool', tool_call_id: 'call-1', content: fallback }])
    expect(toOpenAIResponsesItems([result])).toEqual([
      { type: 'function_call_output', call_id: 'call-1', output: fallback },
    ])
  })

  it('gives Anthropic one text block per part that is not an image', () => {
    const [block] = toAnthropicToolResults([result]).content
    expect(block).toEqual({
      type: 'tool_result',
      tool_use_id: 'call-1',
      content: fallback.split('\n\n').map((text) => ({ type: 'text', text })),
    })
  })

  it('gives Gemini the audio as inline data after the response, and the rest as text', () => {
    const { parts } = toGeminiFunctionResponses([result])
    expect(parts).toEqual([
      {
        functionResponse: {
          name: 'find',
          id: 'call-1',
          response: { output: 'found it\n\n[resource file:///a.md]\n# A\n\n[resource link b.csv file:///b.csv]' },
        },
      },
      { text: 'Images and audio from tool call call-1:' },
      { inlineData: { mimeType: 'audio/wav', data: audio.data } },
    ])
  })
})
