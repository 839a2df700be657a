import { describe, expect, it, vi } from 'vitest'
import { expectFailure, expectSuccess } from '../../../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import { ToolError } from '../errors/tool-error.js'
import { add, call, deferred, toolWith, wait } from './__fixtures__/tools.js'
import type { CallOutcome } from './call.js'
import { createToolRuntime } from './create-tool-runtime.js'

describe('stages 5 and 6: wrappers and body', () => {
  it('nests wrappers as an onion by order', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    const seen: string[] = []
    for (const [name, order] of [
      ['inner', 2],
      ['outer', 1],
    ] as const) {
      runtime.on(
        'tools/execute',
        async (_exec, next) => {
          seen.push(`${name} in`)
          const outcome = await next()
          seen.push(`${name} out`)
          return outcome
        },
        { order },
      )
    }
    expect(expectSuccess(await runtime.execute(call('add', { a: 1, b: 2 }))).value).toBe(3)
    expect(seen).toEqual(['outer in', 'inner in', 'inner out', 'outer out'])
  })

  it('makes calling next twice, throwing, or returning nothing a WRAPPER_ERROR', async () => {
    const body = vi.fn(() => 1)
    const wrappers = [
      async (_exec: unknown, next: () => Promise<CallOutcome>) => {
        await next()
        return next()
      },
      async (_exec: unknown, next: () => Promise<CallOutcome>) => {
        await next()
        await next().catch(() => undefined)
        return { ok: true, value: 1, content: [] } as CallOutcome
      },
      () => {
        throw new Error('wrapper broke')
      },
      () => undefined as never,
    ]
    for (const wrapper of wrappers) {
      const runtime = createToolRuntime()
      runtime.register(toolWith('t', body))
      runtime.on('tools/execute', wrapper as never)
      const result = await runtime.execute(call('t'))
      expect(expectFailure(result).error.code).toBe('WRAPPER_ERROR')
      expect(result.content).toHaveLength(1)
    }
    expect(body.mock.calls.length).toBeLessThanOrEqual(2)
  })

  it('lets a wrapper short-circuit, and keeps a thrown ToolError code', async () => {
    const runtime = createToolRuntime()
    const body = vi.fn(() => 1)
    runtime.register(toolWith('t', body))
    const cached = runtime.on('tools/execute', () => ({
      ok: true,
      value: 'cached',
      content: [{ type: 'text', text: 'c' }],
    }))
    expect(expectSuccess(await runtime.execute(call('t'))).value).toBe('cached')
    expect(body).not.toHaveBeenCalled()
    cached.dispose()
    runtime.on('tools/execute', () => {
      throw new ToolError({ code: 'TOOL_TIMEOUT', message: 'too slow' })
    })
    expect(expectFailure(await runtime.execute(call('t'))).error).toEqual({ code: 'TOOL_TIMEOUT', message: 'too slow' })
  })

  it('fuses the caller signal back when a wrapper replaces the signal', async () => {
    const runtime = createToolRuntime()
    runtime.register(wait)
    let bodySignal: AbortSignal | undefined
    const wrapperController = new AbortController()
    runtime.on('tools/execute', (_exec, next) => next({ signal: wrapperController.signal }))
    runtime.on(
      'tools/execute',
      (exec, next) => {
        bodySignal = exec.signal
        return next()
      },
      { order: 1 },
    )
    const caller = new AbortController()
    const pending = runtime.execute(call('wait', { ms: 10_000 }), { signal: caller.signal })
    await vi.waitFor(() => expect(bodySignal).toBeDefined())
    expect(bodySignal).not.toBe(caller.signal)
    expect(bodySignal).not.toBe(wrapperController.signal)
    caller.abort()
    const result = await pending
    expect(bodySignal!.aborted).toBe(true)
    expect(expectFailure(result).error.code).toBe('ABORTED')
  })

  it('counts a body that rejects with its signal reason as ABORTED, and any other rejection as the tool failing', async () => {
    const runtime = createToolRuntime()
    const failsOnAbort = (reason: 'signal' | 'own') =>
      defineTool({
        name: `fails_with_${reason}`,
        description: 'Rejects once cancelled.',
        parameters: {},
        execute: (_args, exec) =>
          new Promise<string>((_resolve, reject) => {
            exec.signal.addEventListener('abort', () =>
              reject(reason === 'signal' ? exec.signal.reason : new Error('disk unplugged')),
            )
          }),
      })
    runtime.register(failsOnAbort('signal'))
    runtime.register(failsOnAbort('own'))
    const codes = await Promise.all(
      (['signal', 'own'] as const).map(async (reason) => {
        const caller = new AbortController()
        const pending = runtime.execute(call(`fails_with_${reason}`, {}), { signal: caller.signal })
        setTimeout(() => caller.abort(), 5)
        const result = await pending
        return result.ok ? undefined : result.error.code
      }),
    )
    expect(codes).toEqual(['ABORTED', 'TOOL_ERROR'])
  })

  it('turns a throwing or rejecting body into TOOL_ERROR with its message', async () => {
    const runtime = createToolRuntime()
    runtime.register(
      toolWith('sync', () => {
        throw new Error('disk on fire')
      }),
    )
    runtime.register(toolWith('async', async () => Promise.reject(new Error('network gone'))))
    runtime.register(
      toolWith('coded', () => {
        throw new ToolError({ code: 'DENIED', message: 'not yours', userMessage: 'Ask the owner' })
      }),
    )
    expect((await runtime.execute(call('sync'))).content).toEqual([{ type: 'text', text: 'Error: disk on fire' }])
    expect(expectFailure(await runtime.execute(call('async'))).error).toEqual({
      code: 'TOOL_ERROR',
      message: 'network gone',
    })
    const coded = await runtime.execute(call('coded'))
    expect(expectFailure(coded).error).toEqual({ code: 'DENIED', message: 'not yours', userMessage: 'Ask the owner' })
    expect(coded.content).toEqual([{ type: 'text', text: 'Error: not yours' }])
  })

  it('checks the value against output.schema and renders it with output.render', async () => {
    const runtime = createToolRuntime()
    const counted = defineTool({
      name: 'count',
      description: 'Count.',
      parameters: { n: { type: 'integer', required: true } },
      output: {
        schema: { type: 'integer', minimum: 0 },
        render: (args, value) => [{ type: 'text', text: `${args.n} -> ${value}` }],
      },
      execute: ({ n }) => n,
    })
    runtime.register(counted)
    const fine = await runtime.execute(call('count', { n: 3 }))
    expect(fine).toMatchObject({ ok: true, value: 3, content: [{ type: 'text', text: '3 -> 3' }] })
    const bad = await runtime.execute(call('count', { n: -1 }))
    expect(expectFailure(bad).error.code).toBe('INVALID_OUTPUT')
    expect(bad.content).toHaveLength(1)
  })
})

describe('cancellation', () => {
  it('never calls the body when the signal is aborted before dispatch', async () => {
    const body = vi.fn(() => 1)
    const runtime = createToolRuntime()
    runtime.register(toolWith('t', body))
    const controller = new AbortController()
    controller.abort()
    const result = await runtime.execute(call('t'), { signal: controller.signal })
    expect(expectFailure(result).error.code).toBe('ABORTED_BEFORE_DISPATCH')
    expect(result.content).toMatchInlineSnapshot(`
      [
        {
          "text": "Error: The call to t was cancelled before it started.",
          "type": "text",
        },
      ]
    `)
    expect(body).not.toHaveBeenCalled()
  })

  it('settles as ABORTED_BEFORE_DISPATCH when cancelled while waiting for approval', async () => {
    const answer = deferred<boolean>()
    const runtime = createToolRuntime({ approve: () => answer.promise })
    const body = vi.fn(() => 1)
    runtime.register(toolWith('t', body))
    runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'ok?' }))
    const controller = new AbortController()
    const pending = runtime.execute(call('t'), { signal: controller.signal })
    controller.abort()
    expect(expectFailure(await pending).error.code).toBe('ABORTED_BEFORE_DISPATCH')
    answer.resolve(true)
    expect(body).not.toHaveBeenCalled()
  })

  it('replaces only a success with ABORTED once the body ran', async () => {
    const runtime = createToolRuntime()
    const gate = deferred()
    runtime.register(toolWith('ok', async () => gate.promise.then(() => 'done')))
    runtime.register(
      toolWith('fails', async () => {
        await gate.promise
        throw new Error('failed anyway')
      }),
    )
    const controller = new AbortController()
    const succeeded = runtime.execute(call('ok'), { signal: controller.signal })
    const failed = runtime.execute(call('fails'), { signal: controller.signal })
    await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    gate.resolve()
    const [first, second] = await Promise.all([succeeded, failed])
    expect(expectFailure(first).error.code).toBe('ABORTED')
    expect(first.content).toMatchInlineSnapshot(`
      [
        {
          "text": "Error: The call to ok was cancelled.",
          "type": "text",
        },
      ]
    `)
    expect(expectFailure(second).error.code).toBe('TOOL_ERROR')
  })
})
