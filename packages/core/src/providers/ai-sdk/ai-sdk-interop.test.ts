import { generateText, jsonSchema, stepCountIs, tool } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { expectFailure, expectSuccess } from '../../../../../test/support/settled-result.js'
import { defineTool } from '../../definition/define-tool.js'
import { createToolRuntime } from '../../pipeline/create-tool-runtime.js'
import { PIXEL } from '../__fixtures__/calls-and-results.js'
import { fromAISDKTools } from './from-ai-sdk-tools.js'
import { registerAISDKTools } from './register-ai-sdk-tools.js'
import { toAISDKTools } from './to-ai-sdk-tools.js'

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
}

/** A model that calls the given tools in its first step and stops in its second. */
function scriptedModel(calls: readonly { id: string; name: string; input: unknown }[]) {
  return new MockLanguageModelV4({
    doGenerate: [
      {
        content: calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.id,
          toolName: call.name,
          input: JSON.stringify(call.input),
        })),
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'done' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      },
    ],
  })
}

function runtimeWithTools() {
  const runtime = createToolRuntime()
  const seen: string[] = []
  runtime.register(
    defineTool({
      name: 'add',
      description: 'Adds two integers',
      parameters: { a: { type: 'integer', required: true }, b: { type: 'integer', required: true } },
      executionMode: 'parallel',
      execute: ({ a, b }, exec) => {
        seen.push(exec.callId)
        return a + b
      },
    }),
  )
  runtime.register(
    defineTool({
      name: 'snap',
      description: 'Takes a picture',
      parameters: {},
      output: { schema: { type: 'string' }, render: () => [{ type: 'image', data: PIXEL, mimeType: 'image/png' }] },
      execute: () => 'picture',
    }),
  )
  return { runtime, seen }
}

describe('toAISDKTools', () => {
  it('runs the AI SDK tool loop through our pipeline, failures and images included', async () => {
    const { runtime, seen } = runtimeWithTools()
    const model = scriptedModel([
      { id: 't1', name: 'add', input: { a: 2, b: 3 } },
      { id: 't2', name: 'add', input: { a: 'two', b: 3 } },
      { id: 't3', name: 'snap', input: {} },
    ])
    const result = await generateText({ model, tools: toAISDKTools(runtime), prompt: 'go', stopWhen: stepCountIs(2) })
    expect(seen).toEqual(['t1'])
    const outputs = result.steps[0]?.toolResults.map((part) => [part.toolCallId, (part.output as { ok: boolean }).ok])
    expect(outputs).toEqual([
      ['t1', true],
      ['t2', false],
      ['t3', true],
    ])
    const secondPrompt = JSON.stringify(model.doGenerateCalls[1]?.prompt)
    expect(secondPrompt).toContain('"type":"text","value":"5"')
    expect(secondPrompt).toContain('"type":"error-text","value":"Error: ')
    expect(secondPrompt).toContain(`"mediaType":"image/png"`)
  })

  it('sends our schemas as the tools the model sees', async () => {
    const { runtime } = runtimeWithTools()
    const model = new MockLanguageModelV4({
      doGenerate: { content: [], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
    })
    await generateText({ model, tools: toAISDKTools(runtime), prompt: 'go' })
    const sent = model.doGenerateCalls[0]?.tools?.map((sentTool) => [
      sentTool.name,
      'inputSchema' in sentTool ? sentTool.inputSchema : undefined,
    ])
    expect(sent).toEqual(runtime.schemas().map((schema) => [schema.name, schema.parameters]))
  })
})

describe('fromAISDKTools', () => {
  it('registers AI SDK tools, converting zod and JSON schemas, and runs them with the call id and signal', async () => {
    const received: unknown[] = []
    const { definitions, skipped } = await fromAISDKTools({
      weather: tool({
        description: 'Weather for a city',
        inputSchema: z.object({ city: z.string().min(2), days: z.number().int().optional() }),
        execute: async (input, options) => {
          received.push([input, options.toolCallId, options.abortSignal instanceof AbortSignal])
          return { city: input.city, sunny: true }
        },
      }),
      'echo text': tool({
        description: 'Echo',
        inputSchema: jsonSchema<{ text: string }>({
          type: 'object',
          properties: { text: { type: 'string' } },
          required: ['text'],
        }),
        execute: async ({ text }) => text,
      }),
      noExecute: tool({ description: 'Client-side', inputSchema: z.object({}) }),
    })
    expect(skipped).toEqual([{ name: 'noExecute', reason: 'it has no execute function' }])
    expect(definitions.map((definition) => definition.name)).toEqual(['weather', 'echo_text'])
    const runtime = createToolRuntime()
    for (const definition of definitions) runtime.register(definition)
    const [ok, invalid, echoed] = await runtime.executeAll([
      { id: 'w1', name: 'weather', arguments: '{"city":"Oslo"}' },
      { id: 'w2', name: 'weather', arguments: '{"city":"O"}' },
      { id: 'e1', name: 'echo_text', arguments: { text: 'hi' } },
    ])
    expect(expectSuccess(ok).value).toEqual({ city: 'Oslo', sunny: true })
    expect(expectFailure(invalid).error.code).toBe('INVALID_ARGUMENTS')
    expect(expectSuccess(echoed).value).toBe('hi')
    expect(received).toEqual([[{ city: 'Oslo' }, 'w1', true]])
  })

  it('registers them in a runtime scope with one disposer that removes them all', async () => {
    const runtime = createToolRuntime()
    const registration = await registerAISDKTools(runtime.agent('helper'), {
      ping: tool({ description: 'Ping', inputSchema: z.object({}), execute: async () => 'pong' }),
    })
    expect(
      runtime
        .agent('helper')
        .schemas()
        .map((schema) => schema.name),
    ).toEqual(['ping'])
    expect(runtime.schemas()).toEqual([])
    expect(expectSuccess(await runtime.agent('helper').execute({ id: 'p1', name: 'ping', arguments: {} })).value).toBe(
      'pong',
    )
    registration.dispose()
    expect(runtime.agent('helper').schemas()).toEqual([])
  })

  it('keeps no hold on the agent it was given by id: its calls run in the scope as it is at call time', async () => {
    const runtime = createToolRuntime()
    const helper = runtime.agent('helper')
    helper.register(defineTool({ name: 'ping', description: 'Ping', parameters: {}, execute: () => 'pong' }))
    const tools = toAISDKTools(runtime, 'helper')
    const options = { toolCallId: 'p1', messages: [], context: undefined } as never
    expect(await tools.ping?.execute?.({} as never, options)).toMatchObject({ ok: true, value: 'pong' })
    helper.dispose()
    expect(await tools.ping?.execute?.({} as never, options)).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_TOOL' },
    })
  })
})
