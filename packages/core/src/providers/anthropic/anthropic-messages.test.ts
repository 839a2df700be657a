import type { MessageParam, ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { describe, expect, it } from 'vitest'
import { CALLS, PIXEL, RESULTS } from '../__fixtures__/calls-and-results.js'
import {
  fromAnthropicToolUses,
  readAnthropicToolResults,
  toAnthropicToolResults,
  toAnthropicToolUses,
} from './anthropic-messages.js'

describe('Anthropic tool_use and tool_result blocks', () => {
  it('round-trips parallel calls with parsed input, skipping text blocks', () => {
    const blocks: ToolUseBlockParam[] = toAnthropicToolUses(CALLS)
    const parsed = fromAnthropicToolUses([{ type: 'text' }, ...blocks])
    expect(parsed).toEqual(
      CALLS.map((call) => ({
        ...call,
        arguments: typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments,
      })),
    )
  })

  it('answers every call first in one user message, flags failures, keeps images, then adds contexts', () => {
    const message: MessageParam = toAnthropicToolResults(RESULTS, { calls: CALLS })
    expect(message).toMatchSnapshot()
    const read = readAnthropicToolResults(toAnthropicToolResults(RESULTS, { calls: CALLS }).content)
    expect(read.map((result) => [result.id, result.isError])).toEqual([
      ['call_1', false],
      ['call_2', false],
      ['call_3', true],
      ['call_4', true],
      ['call_5', true],
    ])
    expect(read[1]?.content).toEqual([
      { type: 'text', text: 'Captured the page.' },
      { type: 'image', mimeType: 'image/png', data: PIXEL },
    ])
  })

  it('describes an image type the API does not take instead of sending it', () => {
    const message = toAnthropicToolResults([
      {
        id: 'x',
        name: 'draw',
        ok: true,
        content: [{ type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }],
        value: null,
        durationMs: 0,
      },
    ])
    expect(message.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'x',
        content: [{ type: 'text', text: '[image (image/svg+xml) left out: the API takes JPEG, PNG, GIF and WebP]' }],
      },
    ])
  })
})
