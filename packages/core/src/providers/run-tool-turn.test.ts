import { describe, expect, it } from 'vitest'
import { isInvalidArgumentError } from '../errors/invalid-argument-error.js'
import type { DeferredToolResult } from '../pipeline/call.js'
import { PROVIDERS, type RawCall, responseOf } from './__fixtures__/provider-responses.js'
import { pairingOf } from './__fixtures__/turn-pairing.js'
import { deferring, turnRuntime } from './__fixtures__/turn-runtime.js'
import { runToolTurn } from './run-tool-turn.js'
import type { ProviderName } from './turn-formats.js'

function codes(results: readonly DeferredToolResult[]): (string | true)[] {
  return results.map((result) => (result.ok ? true : result.status === 'pending' ? 'pending' : result.error.code))
}

/** Runs `calls` as one response of `provider`; the response is typed as the hostile value it is. */
function turnOf(
  provider: ProviderName,
  calls: readonly RawCall[],
  options: { signal?: AbortSignal; maxCalls?: number } = {},
) {
  return runToolTurn(turnRuntime(), responseOf(provider, calls) as never, { provider, ...options })
}

describe.each(PROVIDERS)('runToolTurn for %s', (provider) => {
  it('runs the calls and answers each after the assistant side, in call order', async () => {
    const turn = await runToolTurn(
      turnRuntime(),
      responseOf(
        provider,
        [
          { id: 'c1', name: 'add', args: '{"a":1,"b":2}' },
          { id: 'c2', name: 'boom', args: '{}' },
        ],
        'Let me add.',
      ) as never,
      { provider },
    )
    expect(turn.done).toBe(false)
    expect(turn.text).toBe('Let me add.')
    expect(turn.calls.map((call) => call.name)).toEqual(['add', 'boom'])
    expect(codes(turn.results)).toEqual([true, 'TOOL_ERROR'])
    const { asked, answered } = pairingOf(provider, turn.messages)
    expect(asked).toHaveLength(2)
    expect(answered).toEqual(asked)
    expect(turn.messages).toMatchSnapshot()
  })

  it('ends the loop on a response without calls, handing back the assistant side and its text', async () => {
    const turn = await runToolTurn(turnRuntime(), responseOf(provider, [], 'It is 3.') as never, { provider })
    expect(turn).toMatchObject({ done: true, text: 'It is 3.', calls: [], results: [] })
    // Responses sends back every output item: here a reasoning item and the message.
    expect(turn.messages).toHaveLength(provider === 'openai-responses' ? 2 : 1)
    expect(pairingOf(provider, turn.messages)).toEqual({ asked: [], answered: [] })
  })

  it('answers malformed calls one result each: unknown, nameless, non-JSON, non-object and prototype-key calls', async () => {
    const turn = await turnOf(provider, [
      { id: 'u1', name: 'weather', args: '{}' },
      { id: 'u2', name: 42, args: '{}' },
      { id: 'u3', name: 'add', args: '{"a":1,' },
      { id: 'u4', name: 'add', args: 7 },
      { id: 'u5', name: '__proto__', args: '{}' },
      { id: 'u6', name: 'constructor', args: '{}' },
      { id: 'u7', name: 'add', args: '{"a":1,"b":2,"__proto__":{"polluted":true}}' },
      { id: 'u8', name: 'add', args: '[1,2]' },
    ])
    expect(codes(turn.results)).toEqual([
      'UNKNOWN_TOOL',
      'UNKNOWN_TOOL',
      'INVALID_ARGUMENTS',
      'INVALID_ARGUMENTS',
      'UNKNOWN_TOOL',
      'UNKNOWN_TOOL',
      'INVALID_ARGUMENTS',
      'INVALID_ARGUMENTS',
    ])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const { asked, answered } = pairingOf(provider, turn.messages)
    expect(asked).toHaveLength(8)
    expect(answered).toEqual(asked)
  })

  it('gives repeated, missing, empty and oversized ids ids of their own, so every call keeps one answer', async () => {
    const turn = await turnOf(provider, [
      { id: 'same', name: 'add', args: '{"a":1,"b":1}' },
      { id: 'same', name: 'add', args: '{"a":2,"b":2}' },
      { name: 'add', args: '{"a":3,"b":3}' },
      { id: '', name: 'add', args: '{"a":4,"b":4}' },
      { id: 'x'.repeat(10_000), name: 'add', args: '{"a":5,"b":5}' },
      { id: 17, name: 'add', args: '{"a":6,"b":6}' },
    ])
    expect(turn.results.map((result) => (result.ok ? result.value : undefined))).toEqual([2, 4, 6, 8, 10, 12])
    expect(new Set(turn.calls.map((call) => call.id)).size).toBe(6)
    const { asked, answered } = pairingOf(provider, turn.messages)
    expect(new Set(asked).size).toBe(6)
    expect(answered).toEqual(asked)
  })

  it('refuses 5 MB of arguments as invalid, answered like any other call', async () => {
    const huge = JSON.stringify({ a: 1, b: 2, pad: 'x'.repeat(5 * 1024 * 1024) })
    const turn = await turnOf(provider, [
      { id: 'big', name: 'add', args: huge },
      { id: 'ok', name: 'add', args: '{"a":1,"b":2}' },
    ])
    expect(codes(turn.results)).toEqual(['INVALID_ARGUMENTS', true])
    expect(pairingOf(provider, turn.messages).answered).toHaveLength(2)
  })

  it('runs at most maxCalls of 10,000 calls and refuses the rest, each answered', async () => {
    const calls = Array.from({ length: 10_000 }, (_, index) => ({
      id: `c${index}`,
      name: 'add',
      args: '{"a":1,"b":1}',
    }))
    const turn = await turnOf(provider, calls)
    expect(turn.results).toHaveLength(10_000)
    expect(turn.results.filter((result) => result.ok)).toHaveLength(128)
    const refused = turn.results[128]
    expect(refused?.ok === false && refused.status !== 'pending' ? refused.error : undefined).toEqual({
      code: 'DENIED',
      message: 'The call to add was not run: one turn runs at most 128 tool calls.',
    })
    const { asked, answered } = pairingOf(provider, turn.messages)
    expect(asked).toHaveLength(10_000)
    expect(answered).toEqual(asked)
  })

  it('settles the calls not yet dispatched ABORTED_BEFORE_DISPATCH when the signal aborts, each still answered', async () => {
    const controller = new AbortController()
    const pending = turnOf(
      provider,
      [
        { id: 'w', name: 'wait', args: '{}' },
        { id: 'a', name: 'add', args: '{"a":1,"b":2}' },
        { id: 'b', name: 'boom', args: '{}' },
      ],
      { signal: controller.signal },
    )
    setTimeout(() => controller.abort(), 20)
    const turn = await pending
    expect(codes(turn.results)).toEqual(['ABORTED', 'ABORTED_BEFORE_DISPATCH', 'ABORTED_BEFORE_DISPATCH'])
    const { asked, answered } = pairingOf(provider, turn.messages)
    expect(answered).toEqual(asked)
  })

  it('throws a branded TypeError only for a value that is not this provider’s response at all', async () => {
    for (const response of [null, 'hello', 42, [], { choices: 'x', output: 'x', content: 'x', candidates: 'x' }]) {
      const attempt = runToolTurn(turnRuntime(), response as never, { provider })
      await expect(attempt).rejects.toSatisfy(
        (error: unknown) => isInvalidArgumentError(error) && error instanceof TypeError,
      )
    }
    const other = PROVIDERS.find((name) => name !== provider && name !== 'gemini') ?? 'openai-chat'
    if (provider !== 'gemini') {
      await expect(runToolTurn(turnRuntime(), responseOf(other, []) as never, { provider })).rejects.toThrow(
        `runToolTurn: a '${provider}' response is an object with`,
      )
    }
  })
})

describe('runToolTurn options', () => {
  it('refuses a provider it does not speak, and a maxCalls that is not a count', async () => {
    const response = responseOf('openai-chat', []) as never
    for (const provider of ['bedrock', '__proto__', 'constructor', undefined]) {
      await expect(runToolTurn(turnRuntime(), response, { provider: provider as never })).rejects.toThrow(
        "runToolTurn: provider must be one of 'openai-chat', 'openai-responses', 'anthropic', 'gemini'",
      )
    }
    await expect(runToolTurn(turnRuntime(), response, { provider: 'openai-chat', maxCalls: 1.5 })).rejects.toThrow(
      'maxCalls must be a non-negative integer',
    )
  })

  it('keeps Gemini thought signatures and Responses reasoning items in what goes back', async () => {
    const gemini = await turnOf('gemini', [{ id: 'g', name: 'add', args: '{"a":1,"b":2}' }])
    expect(gemini.messages[0]).toMatchObject({ role: 'model', parts: [{ thoughtSignature: 'c2lnbmF0dXJl' }] })
    const responses = await turnOf('openai-responses', [{ id: 'r', name: 'add', args: '{"a":1,"b":2}' }])
    expect(responses.messages[0]).toEqual({ type: 'reasoning', id: 'rs_1', summary: [] })
  })

  it.each(PROVIDERS)('answers a pending approval with its own text on %s, and the loop goes on', async (provider) => {
    const runtime = deferring(turnRuntime(), 'boom')
    const response = responseOf(provider, [
      { id: 'p1', name: 'boom', args: '{}' },
      { id: 'p2', name: 'add', args: '{"a":2,"b":3}' },
    ])
    const turn = await runToolTurn(runtime, response as never, { provider })
    expect(turn.done).toBe(false)
    expect(codes(turn.results)).toEqual(['pending', true])
    const { asked, answered } = pairingOf(provider, turn.messages)
    expect(answered).toEqual(asked)
    expect(JSON.stringify(turn.messages)).toContain("The call to boom is awaiting a person's approval.")
    expect(JSON.stringify(turn.messages)).not.toContain('is_error')
  })
})
