import { describe, expect, it } from 'vitest'
import { expectFailure } from '../../../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import { createToolRuntime } from '../pipeline/create-tool-runtime.js'
import {
  type AnthropicToolUseBlock,
  fromAnthropicToolUses,
  toAnthropicToolResults,
} from './anthropic/anthropic-messages.js'
import { toAnthropicTools } from './anthropic/to-anthropic-tools.js'
import { fromGeminiFunctionCalls, toGeminiFunctionResponses } from './gemini/gemini-messages.js'
import { toGeminiTools } from './gemini/to-gemini-tools.js'
import { fromOpenAIChatToolCalls, toOpenAIChatMessages } from './openai/openai-chat-messages.js'
import { toOpenAITools } from './openai/to-openai-tools.js'

function runtimeWithSearch() {
  const runtime = createToolRuntime()
  runtime.register(
    defineTool({
      name: 'search',
      description: 'Searches the notes',
      parameters: {
        query: { type: 'string', required: true, minLength: 1 },
        limit: { type: 'integer', minimum: 1 },
      },
      executionMode: 'parallel',
      execute: ({ query, limit }) => `${query}:${limit ?? 'all'}`,
    }),
  )
  return runtime
}

describe('one model turn through a provider format and our pipeline', () => {
  it('OpenAI strict: the null the model must send for an absent option is stripped before validation', async () => {
    const runtime = runtimeWithSearch()
    const schemas = runtime.schemas()
    const { report } = toOpenAITools(schemas, { strict: true })
    const toolCalls = [
      { id: 'a', type: 'function', function: { name: 'search', arguments: '{"query":"tea","limit":null}' } },
      { id: 'b', type: 'function', function: { name: 'search', arguments: '{"query":"","limit":2}' } },
    ]
    const results = await runtime.executeAll(fromOpenAIChatToolCalls(toolCalls, { report, schemas }))
    expect(results.map((result) => [result.id, result.ok, result.ok ? result.value : result.error.code])).toEqual([
      ['a', true, 'tea:all'],
      ['b', false, 'INVALID_ARGUMENTS'],
    ])
    const unstripped = await runtime.executeAll(fromOpenAIChatToolCalls(toolCalls.slice(0, 1)))
    expect(expectFailure(unstripped[0]).error.code).toBe('INVALID_ARGUMENTS')
    expect(toOpenAIChatMessages(results).map((message) => message.role)).toEqual(['tool', 'tool'])
  })

  it('Anthropic: an unknown tool and a call aborted before dispatch still get one tool_result each', async () => {
    const runtime = runtimeWithSearch()
    toAnthropicTools(runtime.schemas(), { strict: true })
    const blocks: AnthropicToolUseBlock[] = [
      { type: 'tool_use', id: 'u1', name: 'search', input: { query: 'tea' } },
      { type: 'tool_use', id: 'u2', name: 'weather', input: {} },
    ]
    const calls = fromAnthropicToolUses(blocks)
    const aborted = new AbortController()
    aborted.abort()
    const results = await runtime.executeAll(calls, { signal: aborted.signal })
    const message = toAnthropicToolResults(results, { calls })
    expect(
      message.content.map((block) => ('tool_use_id' in block ? [block.tool_use_id, block.is_error] : block.type)),
    ).toEqual([
      ['u1', true],
      ['u2', true],
    ])
    expect(results.map((result) => (result.ok ? undefined : result.error.code))).toEqual([
      'ABORTED_BEFORE_DISPATCH',
      'UNKNOWN_TOOL',
    ])
  })

  it('Gemini: calls without ids are answered in order, with the names the model used', async () => {
    const runtime = runtimeWithSearch()
    const { report } = toGeminiTools(runtime.schemas())
    const calls = fromGeminiFunctionCalls(
      [
        { functionCall: { name: 'search', args: { query: 'tea', limit: 1 } } },
        { functionCall: { name: 'search', args: { query: 'milk' } } },
      ],
      { report },
    )
    const content = toGeminiFunctionResponses(await runtime.executeAll(calls), { calls, report })
    expect(content.parts).toEqual([
      { functionResponse: { name: 'search', response: { output: 'tea:1' } } },
      { functionResponse: { name: 'search', response: { output: 'milk:all' } } },
    ])
  })
})
