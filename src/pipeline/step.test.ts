import { describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../test/support/settled-result.js'
import { call, echo, toolWith } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'
import { andThen, answerOf } from './step.js'

/** A thenable that is not a native promise, as another realm or a promise library would hand back. */
function thenable<Value>(value: Value, fails = false): PromiseLike<Value> {
  return {
    // biome-ignore lint/suspicious/noThenProperty: the point is a foreign thenable
    then: (resolve, reject) => (fails ? Promise.reject(value) : Promise.resolve(value)).then(resolve, reject),
  }
}

describe('andThen and answerOf', () => {
  it('goes on at once with a value and after a native promise settles', async () => {
    const seen: unknown[] = []
    const next = (_state: unknown, value: number) => seen.push(value)
    andThen(1, undefined, 0, next, () => 0)
    const later = andThen(Promise.resolve(2), undefined, 0, next, () => 0)
    expect(seen).toEqual([1])
    await later
    expect(seen).toEqual([1, 2])
  })

  it('makes a foreign thenable a native promise, and leaves values and native promises as they are', async () => {
    const native = Promise.resolve(3)
    expect(answerOf(native)).toBe(native)
    expect(answerOf(4)).toBe(4)
    const outcome = { ok: true }
    expect(answerOf(outcome)).toBe(outcome)
    const converted = answerOf(thenable(5))
    expect(converted).toBeInstanceOf(Promise)
    await expect(converted).resolves.toBe(5)
  })
})

// The types ask for promises; another realm or a promise library still hands back thenables at run time.
describe('foreign thenables from user code', () => {
  it('are awaited from a body, a wrapper and each listener', async () => {
    const runtime = createToolRuntime()
    runtime.register(toolWith('later', () => thenable('done')))
    runtime.register(echo)
    runtime.on(
      'tools/pre-execute',
      (event) =>
        thenable(event.call.name === 'echo' ? { action: 'deny' as const, reason: 'no echo' } : undefined) as never,
    )
    runtime.on('tools/execute', (_exec, next) => thenable(undefined).then(() => next()) as never)
    runtime.on(
      'tools/post-execute',
      (event) =>
        thenable(event.outcome.ok ? { content: [{ type: 'text' as const, text: 'replaced' }] } : undefined) as never,
    )
    const later = expectSuccess(await runtime.execute(call('later', {})))
    expect(later.value).toBe('done')
    expect(later.content).toEqual([{ type: 'text', text: 'replaced' }])
    expect(expectFailure(await runtime.execute(call('echo', { text: 'x' }))).error.code).toBe('DENIED')
  })

  it('fail the call with the stage’s code when they reject', async () => {
    const runtime = createToolRuntime()
    runtime.register(toolWith('broken', () => thenable(new Error('body broke'), true)))
    expect(expectFailure(await runtime.execute(call('broken', {}))).error).toMatchObject({
      code: 'TOOL_ERROR',
      message: 'body broke',
    })
    runtime.on('tools/pre-execute', () => thenable(new Error('listener broke'), true) as never)
    expect(expectFailure(await runtime.execute(call('broken', {}))).error.code).toBe('LISTENER_ERROR')
  })
})
