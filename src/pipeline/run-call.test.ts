import { describe, expect, it, vi } from 'vitest'
import { defineTool } from '../definition/define-tool.js'
import { ToolError } from '../errors/tool-error.js'
import { createMemorySessionLog } from '../session-log/memory-session-log.js'
import { add, call, deferred, echo, toolWith, wait } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'
import type { CallOutcome } from './pipeline-events.js'

describe('stage 1: resolve and validate', () => {
  it('fails an absent or hidden tool as UNKNOWN_TOOL with one text part', async () => {
    const runtime = createToolRuntime()
    const result = await runtime.execute(call('nope'))
    expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } })
    expect(result.content).toMatchInlineSnapshot(`
      [
        {
          "text": "Error: Unknown tool "nope".",
          "type": "text",
        },
      ]
    `)
    expect(result.value).toBeUndefined()
  })

  it('fails malformed JSON and schema violations before any listener, guard or approver', async () => {
    const approve = vi.fn(() => true)
    const runtime = createToolRuntime({ approve })
    runtime.register(add)
    const listener = vi.fn(() => ({ action: 'ask' as const, reason: 'check' }))
    const guard = vi.fn(() => undefined)
    runtime.on('tools/pre-execute', listener)
    runtime.guard(guard)
    const malformed = await runtime.execute(call('add', '{"a": 1,'))
    const violating = await runtime.execute(call('add', { a: 1, b: 'two' }))
    const notObject = await runtime.execute(call('add', '[1, 2]'))
    for (const result of [malformed, violating, notObject]) {
      expect(result.error?.code).toBe('INVALID_ARGUMENTS')
      expect(result.content).toHaveLength(1)
      expect(result.content[0]).toMatchObject({ type: 'text' })
      expect((result.content[0] as { text: string }).text.startsWith('Error: Invalid arguments for add: ')).toBe(true)
    }
    expect(violating.content).toMatchInlineSnapshot(`
      [
        {
          "text": "Error: Invalid arguments for add: at /b: expected number, received string "two"",
          "type": "text",
        },
      ]
    `)
    expect(malformed.content).toMatchInlineSnapshot(`
      [
        {
          "text": "Error: Invalid arguments for add: arguments are not valid JSON: at line 1, column 9: expected a property name in double quotes, found the end of the input",
          "type": "text",
        },
      ]
    `)
    expect(listener).not.toHaveBeenCalled()
    expect(guard).not.toHaveBeenCalled()
    expect(approve).not.toHaveBeenCalled()
  })

  it('hands the body frozen arguments and a fresh correlation token per call', async () => {
    const seen: { frozen: boolean; token: string }[] = []
    const runtime = createToolRuntime()
    runtime.register(
      toolWith('probe', (args, exec) => {
        seen.push({ frozen: Object.isFrozen(args), token: exec.correlationId })
        return null
      }),
    )
    const argumentObject = { x: 1 }
    await runtime.execute({ id: '1', name: 'probe', arguments: argumentObject })
    await runtime.execute(call('probe', { x: 2 }))
    expect(seen.map((entry) => entry.frozen)).toEqual([true, true])
    expect(seen[0]!.token).not.toBe(seen[1]!.token)
    expect(Object.isFrozen(argumentObject)).toBe(false)
  })
})

describe('stages 2 to 4: policy', () => {
  it('runs listeners by order, and a deny stops everything after it', async () => {
    const approve = vi.fn(() => true)
    const runtime = createToolRuntime({ approve })
    runtime.register(add)
    const seen: string[] = []
    runtime.on('tools/pre-execute', () => void seen.push('late'), { order: 10 })
    runtime.on(
      'tools/pre-execute',
      () => {
        seen.push('deny')
        return { action: 'deny', reason: 'Not today.', error: { userMessage: 'Blocked by policy X' } }
      },
      { order: 5 },
    )
    runtime.on('tools/pre-execute', () => void seen.push('first'), { order: -1 })
    const guard = vi.fn(() => undefined)
    runtime.guard(guard)
    const result = await runtime.execute(call('add', { a: 1, b: 2 }))
    expect(seen).toEqual(['first', 'deny'])
    expect(guard).not.toHaveBeenCalled()
    expect(approve).not.toHaveBeenCalled()
    expect(result.error).toEqual({ code: 'DENIED', message: 'Not today.', userMessage: 'Blocked by policy X' })
    expect(result.content).toEqual([{ type: 'text', text: 'Error: Not today.' }])
  })

  it('sends asks to the approver with the frozen call and every reason', async () => {
    const approve = vi.fn((_request: unknown) => true)
    const runtime = createToolRuntime({ approve })
    runtime.register(add)
    runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'one' }))
    runtime.on('tools/pre-execute', async () => ({ action: 'ask', reason: 'two' }))
    const result = await runtime.execute(call('add', { a: 1, b: 2 }))
    expect(result.ok).toBe(true)
    const request = approve.mock.calls[0]![0] as unknown as { call: object; reasons: string[] }
    expect(request.reasons).toEqual(['one', 'two'])
    expect(Object.isFrozen(request.call)).toBe(true)
    expect(request.call).toMatchObject({ name: 'add', arguments: { a: 1, b: 2 } })
  })

  it('denies an ask without an approver, saying so', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'sure?' }))
    const result = await runtime.execute(call('add', { a: 1, b: 2 }))
    expect(result.error?.code).toBe('DENIED')
    expect(result.content).toMatchInlineSnapshot(`
      [
        {
          "text": "Error: The call to add needs approval, but no approver is configured.",
          "type": "text",
        },
      ]
    `)
  })

  it.each([
    [false, 'The call to add was not approved.'],
    [{ approved: false, reason: 'User said no.' }, 'User said no.'],
  ])('denies when the approver answers %j', async (answer, message) => {
    const runtime = createToolRuntime({ approve: async () => answer })
    runtime.register(add)
    runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'sure?' }))
    const result = await runtime.execute(call('add', { a: 1, b: 2 }))
    expect(result.error).toMatchObject({ code: 'DENIED', message })
  })

  it('denies when the approver throws', async () => {
    const runtime = createToolRuntime({
      approve: () => {
        throw new Error('approver down')
      },
    })
    runtime.register(add)
    runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'sure?' }))
    const result = await runtime.execute(call('add', { a: 1, b: 2 }))
    expect(result.error?.code).toBe('DENIED')
    expect(result.error?.message).toContain('approver down')
  })

  it('guards run after the listeners; a reason denies, a throw fails closed', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    const seen: string[] = []
    runtime.on('tools/pre-execute', () => void seen.push('listener'))
    const guard = runtime.guard((info) => {
      seen.push('guard')
      return info.arguments.a === 13 ? 'Unlucky number.' : undefined
    })
    expect((await runtime.execute(call('add', { a: 1, b: 2 }))).ok).toBe(true)
    expect(seen).toEqual(['listener', 'guard'])
    expect((await runtime.execute(call('add', { a: 13, b: 2 }))).error).toEqual({
      code: 'DENIED',
      message: 'Unlucky number.',
    })
    guard.dispose()
    runtime.guard(() => {
      throw new Error('broken guard')
    })
    expect((await runtime.execute(call('add', { a: 1, b: 2 }))).error?.code).toBe('LISTENER_ERROR')
  })

  it('turns a throwing or nonsensical listener into LISTENER_ERROR', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    const throwing = runtime.on('tools/pre-execute', () => {
      throw new Error('listener broke')
    })
    const first = await runtime.execute(call('add', { a: 1, b: 2 }))
    expect(first.error?.code).toBe('LISTENER_ERROR')
    expect(first.content).toMatchInlineSnapshot(`
      [
        {
          "text": "Error: A tools/pre-execute listener failed: listener broke",
          "type": "text",
        },
      ]
    `)
    throwing.dispose()
    runtime.on('tools/pre-execute', () => ({ action: 'maybe' }) as never)
    expect((await runtime.execute(call('add', { a: 1, b: 2 }))).error?.code).toBe('LISTENER_ERROR')
  })

  it('runs an agent listener only for that agent, global listeners for everyone', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    const seen: string[] = []
    runtime.on('tools/pre-execute', (event) => void seen.push(`global:${event.call.agentId}`))
    runtime.agent('a').on('tools/pre-execute', (event) => void seen.push(`a:${event.call.agentId}`), { order: -1 })
    await runtime.execute(call('add', { a: 1, b: 2 }))
    await runtime.agent('a').execute(call('add', { a: 1, b: 2 }))
    await runtime.agent('b').execute(call('add', { a: 1, b: 2 }))
    expect(seen).toEqual(['global:undefined', 'a:a', 'global:a', 'global:b'])
  })
})

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
    expect((await runtime.execute(call('add', { a: 1, b: 2 }))).value).toBe(3)
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
      expect(result.error?.code).toBe('WRAPPER_ERROR')
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
    expect((await runtime.execute(call('t'))).value).toBe('cached')
    expect(body).not.toHaveBeenCalled()
    cached.dispose()
    runtime.on('tools/execute', () => {
      throw new ToolError({ code: 'TOOL_TIMEOUT', message: 'too slow' })
    })
    expect((await runtime.execute(call('t'))).error).toEqual({ code: 'TOOL_TIMEOUT', message: 'too slow' })
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
    expect(result.error?.code).toBe('ABORTED')
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
        return (await pending).error?.code
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
    expect((await runtime.execute(call('async'))).error).toEqual({ code: 'TOOL_ERROR', message: 'network gone' })
    const coded = await runtime.execute(call('coded'))
    expect(coded.error).toEqual({ code: 'DENIED', message: 'not yours', userMessage: 'Ask the owner' })
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
    expect(bad.error?.code).toBe('INVALID_OUTPUT')
    expect(bad.content).toHaveLength(1)
  })
})

describe('stages 7 to 9: post-execute, finalize, observe', () => {
  it('lets post-execute replace content and value and attach ordered contexts', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    runtime.on('tools/post-execute', () => ({ contexts: [{ content: [{ type: 'text', text: 'second' }] }] }), {
      order: 2,
    })
    runtime.on(
      'tools/post-execute',
      (event) => ({
        value: (event.outcome.ok ? (event.outcome.value as number) : 0) * 10,
        content: [{ type: 'text', text: 'replaced' }],
        contexts: [{ content: [{ type: 'text', text: 'first' }] }],
      }),
      { order: 1 },
    )
    const result = await runtime.execute(call('add', { a: 1, b: 2 }))
    expect(result).toMatchObject({ ok: true, value: 30, content: [{ type: 'text', text: 'replaced' }] })
    expect(result.contexts?.map((context) => (context.content[0] as { text: string }).text)).toEqual([
      'first',
      'second',
    ])
  })

  it('lets post-execute block with feedback the model reads', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    const later = vi.fn()
    runtime.on('tools/post-execute', () => ({ block: 'That sum is secret.' }))
    runtime.on('tools/post-execute', later, { order: 1 })
    const result = await runtime.execute(call('add', { a: 1, b: 2 }))
    expect(result).toMatchObject({ ok: false, error: { code: 'BLOCKED', message: 'That sum is secret.' } })
    expect(result.content).toEqual([{ type: 'text', text: 'Error: That sum is secret.' }])
    expect(result.value).toBeUndefined()
    expect(later).not.toHaveBeenCalled()
  })

  it('applies finalizeContent to successes only', async () => {
    const finalizeContent = vi.fn((content: readonly { type: string }[]) => [
      ...content,
      { type: 'text', text: '(end)' },
    ])
    const runtime = createToolRuntime()
    const tool = defineTool({
      name: 'maybe',
      description: 'Fails on odd numbers.',
      parameters: { n: { type: 'integer', required: true } },
      execute: ({ n }) => {
        if (n % 2 === 1) throw new Error('odd')
        return n
      },
      finalizeContent: finalizeContent as never,
    })
    runtime.register(tool)
    expect((await runtime.execute(call('maybe', { n: 2 }))).content).toEqual([
      { type: 'text', text: '2' },
      { type: 'text', text: '(end)' },
    ])
    expect((await runtime.execute(call('maybe', { n: 1 }))).content).toEqual([{ type: 'text', text: 'Error: odd' }])
    expect(finalizeContent).toHaveBeenCalledTimes(1)
  })

  it('gives observers the frozen final result; a throwing observer affects nothing', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    const seen: unknown[] = []
    runtime.on('tools/result', () => {
      throw new Error('observer broke')
    })
    runtime.on('tools/result', async () => Promise.reject(new Error('async observer broke')))
    runtime.on('tools/result', (event) => {
      seen.push(event.result)
      expect(Object.isFrozen(event.result)).toBe(true)
      expect(Object.isFrozen(event.result.content)).toBe(true)
    })
    const result = await runtime.execute(call('add', { a: 1, b: 2 }))
    expect(result.ok).toBe(true)
    expect(seen).toEqual([result])
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
    expect(result.error?.code).toBe('ABORTED_BEFORE_DISPATCH')
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
    expect((await pending).error?.code).toBe('ABORTED_BEFORE_DISPATCH')
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
    expect(first.error?.code).toBe('ABORTED')
    expect(first.content).toMatchInlineSnapshot(`
      [
        {
          "text": "Error: The call to ok was cancelled.",
          "type": "text",
        },
      ]
    `)
    expect(second.error?.code).toBe('TOOL_ERROR')
  })
})

describe('session log', () => {
  it('records started before policy and exactly one settled per call', async () => {
    const log = createMemorySessionLog()
    const runtime = createToolRuntime({ sessionLog: log })
    runtime.register(echo)
    runtime.on('tools/pre-execute', () => ({ action: 'deny', reason: 'no echo' }))
    await runtime.agent('a').execute({ id: 'c1', name: 'echo', arguments: '{"text":"hi"}' })
    await runtime.execute({ id: 'c2', name: 'echo', arguments: '{"text":' })
    expect(log.records.map((record) => [record.type, record.id])).toEqual([
      ['tool.call.started', 'c1'],
      ['tool.call.settled', 'c1'],
      ['tool.call.started', 'c2'],
      ['tool.call.settled', 'c2'],
    ])
    expect(log.records[0]).toMatchObject({ name: 'echo', arguments: { text: 'hi' }, agentId: 'a' })
    expect(log.records[1]).toMatchObject({
      ok: false,
      error: { code: 'DENIED', message: 'no echo' },
      content: [{ type: 'text', text: 'Error: no echo' }],
    })
    expect(log.records[2]).toMatchObject({ arguments: '{"text":' })
  })
})
