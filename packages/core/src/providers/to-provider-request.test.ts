import { describe, expect, it } from 'vitest'
import { isInvalidArgumentError } from '../errors/invalid-argument-error.js'
import { createToolRuntime } from '../pipeline/create-tool-runtime.js'
import type { ToolPrompt } from '../registry/tool-schema.js'
import { PROVIDERS } from './__fixtures__/provider-responses.js'
import { turnRuntime } from './__fixtures__/turn-runtime.js'
import { toProviderRequest } from './to-provider-request.js'

/** A prompt with sections out of order, as a presenter (code mode, tool search) contributes them. */
function withSections(): { prompt(): ToolPrompt } {
  const runtime = turnRuntime()
  return {
    prompt: () => ({
      tools: runtime.prompt().tools,
      sections: [
        { id: 'second', order: 20, text: 'Then read the results.', interpolate: false },
        { id: 'first', order: 10, text: 'Call tools when they help.', interpolate: true },
      ],
    }),
  }
}

describe.each(PROVIDERS)('toProviderRequest for %s', (provider) => {
  it('writes the instructions, then the sections by order, and the tools in the provider’s request shape', () => {
    const request = toProviderRequest(withSections(), provider, { instructions: 'You add numbers.' })
    expect(request).toMatchSnapshot()
    expect(JSON.stringify(request)).toContain(
      'You add numbers.\\n\\nCall tools when they help.\\n\\nThen read the results.',
    )
  })

  it('is byte-stable across runs and registration orders', () => {
    const first = JSON.stringify(toProviderRequest(turnRuntime(), provider))
    const again = turnRuntime()
    expect(JSON.stringify(toProviderRequest(again, provider))).toBe(first)
    const reversed = createToolRuntime()
    for (const name of ['wait', 'boom', 'add']) reversed.register(again.get(name)!)
    expect(JSON.stringify(toProviderRequest(reversed, provider))).toBe(first)
  })

  it('leaves out the system text and the tools when there are none (the APIs refuse an empty tool list)', () => {
    const request = toProviderRequest(createToolRuntime(), provider)
    expect(request).toEqual(provider === 'openai-chat' ? { messages: [] } : {})
  })
})

it('toProviderRequest refuses a provider it does not speak', () => {
  expect(() => toProviderRequest(turnRuntime(), 'bedrock' as never)).toThrow(
    expect.objectContaining({ message: expect.stringContaining('toProviderRequest: provider must be one of') }),
  )
  let thrown: unknown
  try {
    toProviderRequest(turnRuntime(), 'toString' as never)
  } catch (error) {
    thrown = error
  }
  expect(isInvalidArgumentError(thrown)).toBe(true)
})
