import { describe, expect, it } from 'vitest'
import { CALLS, RESULTS } from '../__fixtures__/calls-and-results.js'
import {
  fromGeminiFunctionCalls,
  readGeminiFunctionResponses,
  toGeminiFunctionCalls,
  toGeminiFunctionResponses,
} from './gemini-messages.js'
import { toGeminiTools } from './to-gemini-tools.js'

describe('Gemini functionCall and functionResponse parts', () => {
  it('round-trips calls that carry ids', () => {
    const parsed = fromGeminiFunctionCalls([{ text: 'thinking' }, ...toGeminiFunctionCalls(CALLS)])
    expect(parsed).toEqual(
      CALLS.map((call) => ({
        ...call,
        arguments: typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments,
      })),
    )
  })

  it('mints the same ids for the same turn when the model gave none, and never sends them back', () => {
    const parts = [
      { functionCall: { name: 'read_file', args: { path: 'a' } } },
      { functionCall: { name: 'read_file', args: { path: 'b' } } },
    ]
    const first = fromGeminiFunctionCalls(parts)
    expect(fromGeminiFunctionCalls(parts)).toEqual(first)
    expect(new Set(first.map((call) => call.id)).size).toBe(2)
    expect(toGeminiFunctionCalls(first)).toEqual(parts)
    const content = toGeminiFunctionResponses([], { calls: first })
    expect(content.parts.every((part) => 'functionResponse' in part && part.functionResponse.id === undefined)).toBe(
      true,
    )
  })

  it('answers every call in order with output or error, images and contexts after', () => {
    const content = toGeminiFunctionResponses(RESULTS, { calls: CALLS })
    expect(content).toMatchSnapshot()
    const read = readGeminiFunctionResponses(content.parts, CALLS)
    expect(read.map((result) => [result.id, result.isError])).toEqual([
      ['call_1', false],
      ['call_2', false],
      ['call_3', true],
      ['call_4', true],
      ['call_5', true],
    ])
  })

  it('uses the provider name of a renamed tool in both directions', () => {
    const { report } = toGeminiTools([
      { name: '1st-tool', description: 'd', parameters: { type: 'object', properties: {} } },
    ])
    const [call] = fromGeminiFunctionCalls([{ functionCall: { name: '_1st-tool', args: {} } }], { report })
    expect(call?.name).toBe('1st-tool')
    const content = toGeminiFunctionResponses(
      [
        {
          id: call?.id ?? '',
          name: '1st-tool',
          ok: true,
          content: [{ type: 'text', text: 'done' }],
          value: 'done',
          durationMs: 0,
        },
      ],
      { report },
    )
    expect(content.parts).toEqual([{ functionResponse: { name: '_1st-tool', response: { output: 'done' } } }])
  })
})
