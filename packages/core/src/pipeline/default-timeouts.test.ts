import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { call, toolWith, wait } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'
import { isToolRuntimeConfigError } from './runtime-config.js'
import { timeoutPolicy } from './timeout-policy.js'

/** A body that never settles and records the signal it saw. */
function stuck(name: string, extra: { timeoutMs?: number } = {}) {
  const seen: { signal: AbortSignal | undefined } = { signal: undefined }
  const tool = toolWith(
    name,
    (_args, exec) => {
      seen.signal = exec.signal
      return new Promise(() => {})
    },
    extra,
  )
  return { tool, seen }
}

describe('timeouts on by default', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("enforces a definition's timeoutMs without timeoutPolicy installed", async () => {
    const runtime = createToolRuntime()
    const { tool, seen } = stuck('slow', { timeoutMs: 100 })
    runtime.register(tool)
    const pending = runtime.execute(call('slow'))
    await vi.advanceTimersByTimeAsync(100)
    expect(seen.signal?.aborted).toBe(true)
    await vi.advanceTimersByTimeAsync(1000)
    const result = await pending
    expect(result).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' } })
    expect(result.content[0]).toMatchObject({ text: 'Error: slow did not finish within 100 ms.' })
  })

  it('enforces timeoutMs for a tool an agent view registers, and for a tool that observes its signal', async () => {
    const runtime = createToolRuntime()
    const view = runtime.agent('a')
    view.register({ ...wait, timeoutMs: 50 })
    const pending = view.execute(call('wait', { ms: 10_000 }))
    await vi.advanceTimersByTimeAsync(50)
    expect(await pending).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' } })
  })

  it('applies defaultTimeoutMs to tools that declare none, their own timeoutMs first', async () => {
    const runtime = createToolRuntime({ defaultTimeoutMs: 200 })
    runtime.register(wait)
    runtime.register({ ...toolWith('own', () => new Promise(() => {}), { timeoutMs: 50 }) })
    const plain = runtime.execute(call('wait', { ms: 10_000 }))
    const own = runtime.execute(call('own'))
    const ownState = { settled: false }
    void own.then(() => {
      ownState.settled = true
    })
    await vi.advanceTimersByTimeAsync(50 + 1000)
    expect(ownState.settled).toBe(true)
    expect((await own).content[0]).toMatchObject({ text: 'Error: own did not finish within 50 ms.' })
    await vi.advanceTimersByTimeAsync(200)
    const result = await plain
    expect(result).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' } })
    expect(result.content[0]).toMatchObject({ text: 'Error: wait did not finish within 200 ms.' })
  })

  it('leaves a definition that owns its deadline (as run_code does) to itself under defaultTimeoutMs', async () => {
    const runtime = createToolRuntime({ defaultTimeoutMs: 10 })
    runtime.register({ ...wait, ownsDeadline: true, timeoutMs: 10 })
    const pending = runtime.execute(call('wait', { ms: 500 }))
    await vi.advanceTimersByTimeAsync(500)
    expect(await pending).toMatchObject({ ok: true, value: 'waited' })
  })

  it('leaves timeoutMs unenforced under enforceTimeouts: false', async () => {
    const runtime = createToolRuntime({ enforceTimeouts: false })
    runtime.register({ ...wait, timeoutMs: 10 })
    const pending = runtime.execute(call('wait', { ms: 500 }))
    await vi.advanceTimersByTimeAsync(500)
    expect(await pending).toMatchObject({ ok: true, value: 'waited' })
  })

  it('runs one deadline when timeoutPolicy is also installed by hand, the hand-installed options winning', async () => {
    const runtime = createToolRuntime()
    const { tool, seen } = stuck('slow', { timeoutMs: 100 })
    runtime.register(tool)
    runtime.on('tools/execute', timeoutPolicy({ graceMs: 20 }))
    const aborts: unknown[] = []
    runtime.on('tools/execute', (exec, next) => {
      exec.signal.addEventListener('abort', () => aborts.push(exec.signal.reason))
      return next()
    })
    const pending = runtime.execute(call('slow'))
    const state = { settled: false }
    void pending.then(() => {
      state.settled = true
    })
    await vi.advanceTimersByTimeAsync(120)
    expect(state.settled).toBe(true)
    expect(seen.signal?.aborted).toBe(true)
    expect(aborts).toHaveLength(1)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('gives each retry of a hand-installed policy its own deadline', async () => {
    const runtime = createToolRuntime()
    let attempts = 0
    runtime.register(
      toolWith(
        'flaky',
        () => {
          attempts++
          return attempts === 1
            ? new Promise(() => {})
            : new Promise((resolve) => setTimeout(() => resolve('second'), 60))
        },
        { timeoutMs: 100 },
      ),
    )
    runtime.on(
      'tools/execute',
      async (_exec, next) => {
        const first = await next()
        return first.ok ? first : next()
      },
      { order: -1 },
    )
    runtime.on('tools/execute', timeoutPolicy({ graceMs: 0 }))
    const pending = runtime.execute(call('flaky'))
    await vi.advanceTimersByTimeAsync(200)
    expect(await pending).toMatchObject({ ok: true, value: 'second' })
  })

  it('refuses a nonsense defaultTimeoutMs or enforceTimeouts, naming the field', () => {
    for (const config of [
      { defaultTimeoutMs: 0 },
      { defaultTimeoutMs: -1 },
      { defaultTimeoutMs: Number.POSITIVE_INFINITY },
      { defaultTimeoutMs: '100' },
      { enforceTimeouts: 'yes' },
      { enforceTimeouts: false, defaultTimeoutMs: 100 },
    ]) {
      let thrown: unknown
      try {
        createToolRuntime(config as never)
      } catch (error) {
        thrown = error
      }
      expect(isToolRuntimeConfigError(thrown)).toBe(true)
      expect((thrown as { field: string }).field).toBe(Object.keys(config).at(-1))
    }
  })
})
