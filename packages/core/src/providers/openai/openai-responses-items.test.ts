import type { ResponseFunctionToolCall, ResponseInputItem } from 'openai/resources/responses/responses'
import { describe, expect, it } from 'vitest'
import { CALLS, PIXEL, RESULTS } from '../__fixtures__/calls-and-results.js'
import {
  fromOpenAIResponsesCalls,
  readOpenAIResponsesResults,
  toOpenAIResponsesCalls,
  toOpenAIResponsesItems,
} from './openai-responses-items.js'

describe('OpenAI Responses function_call and function_call_output items', () => {
  it('round-trips parallel calls and skips other output items', () => {
    const items: ResponseFunctionToolCall[] = toOpenAIResponsesCalls(CALLS)
    const parsed = fromOpenAIResponsesCalls([{ type: 'reasoning' }, ...items])
    expect(parsed.map((call) => call.id)).toEqual(CALLS.map((call) => call.id))
    expect(parsed[1]?.arguments).toBe('{"url":"https://example.com"}')
  })

  it('answers every call, with images inside the output and contexts in a following user message', () => {
    const items: ResponseInputItem[] = toOpenAIResponsesItems(RESULTS, { calls: CALLS })
    expect(items).toMatchSnapshot()
    const read = readOpenAIResponsesResults(toOpenAIResponsesItems(RESULTS, { calls: CALLS }))
    expect(read.map((result) => result.id)).toEqual(CALLS.map((call) => call.id))
    expect(read[1]?.content).toEqual([
      { type: 'text', text: 'Captured the page.' },
      { type: 'image', mimeType: 'image/png', data: PIXEL },
    ])
    expect(read[4]?.content).toEqual([{ type: 'text', text: 'Error: the call was not run, so it has no result' }])
  })
})
