import { describe, expect, it } from 'vitest'
import { expectFailure } from '../../../../test/support/settled-result.js'
import { call, deferred, toolWith } from './__fixtures__/tools.js'
import type { CallOutcome } from './call.js'
import { createToolRuntime } from './create-tool-runtime.js'
import type { ExecuteWrapper } from './pipeline-events.js'
import { timeoutPolicy } from './timeout-policy.js'

/** Calls `next` until it succeeds or `attempts` ran out, as a retry policy would. */
const retry =
  (attempts: number): ExecuteWrapper =>
  async (_exec, next) => {
    let outcome: CallOutcome = await next()
    for (let attempt = 1; attempt < attempts && !outcome.ok; attempt++) outcome = await next()
    return outcome
  }

describe('tools/execute wrappers', () => {
  it('let a wrapper retry after a failure: the inner layers and the body run afresh', async () => {
    const runtime = createToolRuntime()
    let bodyRuns = 0
    runtime.register(
      toolWith('flaky', () => {
        bodyRuns++
        if (bodyRuns < 3) throw new Error(`attempt ${bodyRuns} failed`)
        return 'third time'
      }),
    )
    const innerEntries: string[] = []
    runtime.on('tools/execute', retry(5))
    runtime.on(
      'tools/execute',
      (exec, next) => {
        innerEntries.push(exec.callId)
        return next()
      },
      { order: 1 },
    )
    const result = await runtime.execute(call('flaky', {}, 'r'))
    expect(result).toMatchObject({ ok: true, value: 'third time' })
    expect(bodyRuns).toBe(3)
    expect(innerEntries).toEqual(['r', 'r', 'r'])
  })

  it('gives a retry a fresh deadline under timeoutPolicy, and keeps the last failure when retries run out', async () => {
    const runtime = createToolRuntime()
    let bodyRuns = 0
    const hangsOnce = toolWith(
      'hangs_once',
      (_args, exec) =>
        ++bodyRuns === 1
          ? new Promise((_resolve, reject) => exec.signal.addEventListener('abort', () => reject(exec.signal.reason)))
          : 'answered',
      { timeoutMs: 20 },
    )
    runtime.register(hangsOnce)
    runtime.register(toolWith('always_fails', () => Promise.reject(new Error('still broken'))))
    runtime.on('tools/execute', retry(2))
    runtime.on('tools/execute', timeoutPolicy({ graceMs: 5 }), { order: 1 })
    expect(await runtime.execute(call('hangs_once'))).toMatchObject({ ok: true, value: 'answered' })
    expect(bodyRuns).toBe(2)
    expect(expectFailure(await runtime.execute(call('always_fails'))).error).toEqual({
      code: 'TOOL_ERROR',
      message: 'still broken',
    })
  })

  it('refuses a second next() while the first is pending, and the call becomes a WRAPPER_ERROR', async () => {
    const runtime = createToolRuntime()
    const gate = deferred<string>()
    let bodyRuns = 0
    runtime.register(
      toolWith('slow', () => {
        bodyRuns++
        return gate.promise
      }),
    )
    let second: unknown
    runtime.on('tools/execute', async (_exec, next) => {
      const first = next()
      second = await next().then(
        () => 'ran',
        (error: Error) => error.message,
      )
      gate.resolve('late')
      return first
    })
    const result = await runtime.execute(call('slow'))
    expect(second).toBe('A tools/execute wrapper called next() more than once.')
    expect(expectFailure(result).error.code).toBe('WRAPPER_ERROR')
    expect(bodyRuns).toBe(1)
  })

  it('refuses next() again after a success: only a failure is retried', async () => {
    const runtime = createToolRuntime()
    let bodyRuns = 0
    runtime.register(toolWith('once', () => ++bodyRuns))
    runtime.on('tools/execute', async (_exec, next) => {
      await next()
      return next()
    })
    expect(expectFailure(await runtime.execute(call('once'))).error.code).toBe('WRAPPER_ERROR')
    expect(bodyRuns).toBe(1)
  })

  it('runs the wrappers registered now: the onion is rebuilt when the listeners change', async () => {
    const runtime = createToolRuntime()
    runtime.register(toolWith('t', () => 1))
    const seen: string[] = []
    const first = runtime.on('tools/execute', (_exec, next) => {
      seen.push('first')
      return next()
    })
    await runtime.execute(call('t'))
    const second = runtime.on('tools/execute', (_exec, next) => {
      seen.push('second')
      return next()
    })
    await runtime.execute(call('t'))
    first.dispose()
    await runtime.execute(call('t'))
    second.dispose()
    await runtime.execute(call('t'))
    expect(seen).toEqual(['first', 'first', 'second', 'second'])
  })
})
