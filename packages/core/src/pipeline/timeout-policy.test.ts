import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { expectFailure } from '../../../../test/support/settled-result.js'
import { call, toolWith, wait } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'
import { timeoutPolicy } from './timeout-policy.js'

function settledFlag(promise: Promise<unknown>) {
  const state = { settled: false }
  void promise.then(() => {
    state.settled = true
  })
  return state
}

describe('timeoutPolicy', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('leaves a definition that owns its deadline alone, whatever timeoutMs or default applies', async () => {
    const runtime = createToolRuntime()
    const ownDeadline = Object.freeze({ ...toolWith('own', () => 'done'), ownsDeadline: true, timeoutMs: 10 })
    let bodySignal: AbortSignal | undefined
    runtime.register({
      ...ownDeadline,
      execute: (_args, exec) => {
        bodySignal = exec.signal
        return new Promise<string>((resolve) => setTimeout(() => resolve('finished late'), 200))
      },
    })
    runtime.on('tools/execute', timeoutPolicy({ defaultMs: 10, graceMs: 0 }))
    const pending = runtime.execute(call('own'))
    await vi.advanceTimersByTimeAsync(200)
    expect(await pending).toMatchObject({ ok: true, value: 'finished late' })
    expect(bodySignal?.aborted).toBe(false)
  })

  it('settles as TOOL_TIMEOUT at deadline plus grace when the body ignores its signal', async () => {
    const runtime = createToolRuntime()
    let bodySignal: AbortSignal | undefined
    runtime.register(
      toolWith(
        'stuck',
        (_args, exec) => {
          bodySignal = exec.signal
          return new Promise(() => {})
        },
        { timeoutMs: 100 },
      ),
    )
    runtime.on('tools/execute', timeoutPolicy({ graceMs: 50 }))
    const pending = runtime.execute(call('stuck'))
    const state = settledFlag(pending)
    await vi.advanceTimersByTimeAsync(100)
    expect(bodySignal?.aborted).toBe(true)
    expect(state.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(49)
    expect(state.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(state.settled).toBe(true)
    const result = await pending
    expect(expectFailure(result).error.code).toBe('TOOL_TIMEOUT')
    expect(result.content).toMatchInlineSnapshot(`
      [
        {
          "text": "Error: stuck did not finish within 100 ms.",
          "type": "text",
        },
      ]
    `)
  })

  it('settles at the deadline when the body observes its signal, and uses defaultMs for tools without timeoutMs', async () => {
    const runtime = createToolRuntime()
    runtime.register(wait)
    runtime.on('tools/execute', timeoutPolicy({ defaultMs: 20, graceMs: 1000 }))
    const pending = runtime.execute(call('wait', { ms: 10_000 }))
    const state = settledFlag(pending)
    await vi.advanceTimersByTimeAsync(20)
    expect(state.settled).toBe(true)
    expect(expectFailure(await pending).error.code).toBe('TOOL_TIMEOUT')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('keeps TOOL_TIMEOUT even when the caller aborts afterwards, and leaves in-time calls alone', async () => {
    const runtime = createToolRuntime()
    runtime.register(wait)
    runtime.on('tools/execute', timeoutPolicy({ defaultMs: 50, graceMs: 10 }))
    const quick = runtime.execute(call('wait', { ms: 10 }))
    await vi.advanceTimersByTimeAsync(10)
    expect((await quick).ok).toBe(true)
    expect(vi.getTimerCount()).toBe(0)

    const controller = new AbortController()
    const slow = runtime.execute(call('wait', { ms: 10_000 }), { signal: controller.signal })
    await vi.advanceTimersByTimeAsync(50)
    controller.abort()
    expect(expectFailure(await slow).error.code).toBe('TOOL_TIMEOUT')
  })

  it('lets a caller abort before the deadline win over the timeout', async () => {
    const runtime = createToolRuntime()
    runtime.register(
      toolWith(
        'slow',
        (_args, exec) => new Promise((resolve) => exec.signal.addEventListener('abort', () => resolve('stopped'))),
      ),
    )
    runtime.on('tools/execute', timeoutPolicy({ defaultMs: 1000 }))
    const controller = new AbortController()
    const pending = runtime.execute(call('slow'), { signal: controller.signal })
    await vi.advanceTimersByTimeAsync(10)
    controller.abort()
    expect(expectFailure(await pending).error.code).toBe('ABORTED')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('rejects nonsense options', () => {
    expect(() => timeoutPolicy({ defaultMs: 0 })).toThrow(/defaultMs/)
    expect(() => timeoutPolicy({ graceMs: -1 })).toThrow(/graceMs/)
  })
})
