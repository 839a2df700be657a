import { describe, expect, it, vi } from 'vitest'
import { expectFailure, expectSuccess } from '../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import { add, call, echo, toolWith, wait } from '../pipeline/__fixtures__/tools.js'
import { createToolRuntime } from '../pipeline/create-tool-runtime.js'
import { timeoutPolicy } from '../pipeline/timeout-policy.js'
import { createMemorySessionLog } from '../session-log/memory-session-log.js'
import { createFakePtcRuntime } from './__fixtures__/fake-ptc-runtime.js'

const program = (calls: [string, unknown][], extra: object = {}) =>
  call('run_code', { code: JSON.stringify({ calls, ...extra }), description: 'test program' }, 'run-1')

function setup(mode: 'ptc' | 'both' = 'ptc', extra: { approve?: () => boolean; maxParallelSubCalls?: number } = {}) {
  const ptcRuntime = createFakePtcRuntime()
  const sessionLog = createMemorySessionLog()
  const runtime = createToolRuntime({ mode, ptcRuntime, sessionLog, ...extra })
  runtime.register(add)
  runtime.register(echo)
  return { runtime, ptcRuntime, sessionLog }
}

describe('PTC presentation', () => {
  it('under ptc shows only run_code plus the runtime sections, ordered', () => {
    const { runtime, ptcRuntime } = setup('ptc')
    const prompt = runtime.prompt()
    expect(prompt.tools.map((tool) => tool.name)).toEqual(['run_code'])
    expect(prompt.sections.map((section) => section.id)).toEqual(['tools:ptc-only', 'tools:sdk'])
    expect(ptcRuntime.presented).toEqual([{ names: ['add', 'echo'], mode: 'ptc' }])
    expect(runtime.prompt()).toBe(prompt)
    expect(ptcRuntime.presented).toHaveLength(1)
  })

  it('under both shows the native schemas then run_code', () => {
    const { runtime } = setup('both')
    expect(runtime.prompt().tools.map((tool) => tool.name)).toEqual(['add', 'echo', 'run_code'])
  })

  it('lets one agent present differently, and reserves the run_code name', () => {
    const ptcRuntime = createFakePtcRuntime()
    const runtime = createToolRuntime({ ptcRuntime })
    runtime.register(add)
    const agent = runtime.agent('coder')
    const presentation = agent.presentAs('ptc')
    expect(runtime.prompt().tools.map((tool) => tool.name)).toEqual(['add'])
    expect(agent.prompt().tools.map((tool) => tool.name)).toEqual(['run_code'])
    presentation.dispose()
    expect(agent.prompt().tools.map((tool) => tool.name)).toEqual(['add'])
    const runCode = defineTool({ name: 'run_code', description: 'x', parameters: {}, execute: () => 1 })
    expect(() => runtime.register(runCode)).toThrow(/reserved/)
  })

  it('makes the callable surface the announced one', async () => {
    const { runtime } = setup('ptc')
    expect(expectFailure(await runtime.execute(call('add', { a: 1, b: 2 }))).error.code).toBe('UNKNOWN_TOOL')
    const native = createToolRuntime({ ptcRuntime: createFakePtcRuntime() })
    expect(expectFailure(await native.execute(program([]))).error.code).toBe('UNKNOWN_TOOL')
  })
})

describe('run_code', () => {
  it('runs sub-calls through the pipeline with derived ids, and logs both levels', async () => {
    const { runtime, ptcRuntime, sessionLog } = setup('ptc')
    const seen: string[] = []
    runtime.on('tools/pre-execute', (event) => void seen.push(`${event.call.id}:${event.call.parentId ?? '-'}`))
    const result = await runtime.execute(
      program([
        ['add', { a: 1, b: 2 }],
        ['echo', { text: 'hi' }],
        ['add', { a: 'x' }],
      ]),
    )
    expect(result).toMatchObject({ ok: true, value: [3, 'hi', { error: 'INVALID_ARGUMENTS' }] })
    expect(result.metadata).toEqual({ subCalls: 3, bytesKeptOut: expect.any(Number) })
    expect(ptcRuntime.requests[0]).toMatchObject({
      callId: 'run-1',
      permissions: 'use_default',
      timeoutMs: undefined,
      toolNames: ['add', 'echo'],
    })
    expect(seen).toEqual(['run-1:-', 'run-1:ptc:1:run-1', 'run-1:ptc:2:run-1'])
    const records = sessionLog.records.map((record) => `${record.type}:${record.id}:${record.parentId ?? '-'}`)
    expect(records).toEqual([
      'tool.call.started:run-1:-',
      'tool.call.started:run-1:ptc:1:run-1',
      'tool.call.settled:run-1:ptc:1:run-1',
      'tool.call.started:run-1:ptc:2:run-1',
      'tool.call.settled:run-1:ptc:2:run-1',
      'tool.call.started:run-1:ptc:3:run-1',
      'tool.call.settled:run-1:ptc:3:run-1',
      'tool.call.settled:run-1:-',
    ])
    expect(sessionLog.records.at(-1)).toMatchObject({ metadata: { subCalls: 3 } })
  })

  it('never lets a program call run_code or a tool hidden from the scope', async () => {
    const { runtime } = setup('ptc')
    const agent = runtime.agent('limited')
    agent.restrict({ deny: ['echo'] })
    agent.register(defineTool({ name: 'own', description: 'own', parameters: {}, execute: () => 'mine' }))
    const result = await agent.execute(
      program([
        ['run_code', { code: '{}', description: 'nested' }],
        ['echo', { text: 'hi' }],
        ['own', {}],
      ]),
    )
    expect(expectSuccess(result).value).toEqual([{ error: 'UNKNOWN_TOOL' }, { error: 'UNKNOWN_TOOL' }, 'mine'])
  })

  it('applies policy to sub-calls like any call', async () => {
    const { runtime } = setup('both')
    runtime.on('tools/pre-execute', (event) =>
      event.call.name === 'echo' ? { action: 'deny', reason: 'no echo in programs' } : undefined,
    )
    const result = await runtime.execute(
      program([
        ['echo', { text: 'hi' }],
        ['add', { a: 2, b: 2 }],
      ]),
    )
    expect(expectSuccess(result).value).toEqual([{ error: 'DENIED' }, 4])
  })

  it('validates run_code arguments against the runtime schema', async () => {
    const { runtime, ptcRuntime } = setup('ptc')
    const result = await runtime.execute(call('run_code', { code: 1 }))
    expect(expectFailure(result).error.code).toBe('INVALID_ARGUMENTS')
    expect(ptcRuntime.requests).toHaveLength(0)
  })

  it('requires a justification and an approval before an escalated program starts', async () => {
    const escalated = (justification?: string) =>
      call('run_code', {
        code: JSON.stringify({ calls: [] }),
        description: 'needs network',
        sandbox_permissions: 'require_escalated',
        ...(justification === undefined ? {} : { justification }),
      })
    const unapproved = setup('ptc')
    expect(expectFailure(await unapproved.runtime.execute(escalated())).error.code).toBe('INVALID_ARGUMENTS')
    expect(expectFailure(await unapproved.runtime.execute(escalated('  '))).error.code).toBe('INVALID_ARGUMENTS')
    const denied = await unapproved.runtime.execute(escalated('fetch the docs'))
    expect(expectFailure(denied).error.code).toBe('DENIED')
    expect(unapproved.ptcRuntime.requests).toHaveLength(0)

    const reasons: string[][] = []
    const approved = setup('ptc', {
      approve: ((request: { reasons: string[] }) => {
        reasons.push(request.reasons)
        return true
      }) as never,
    })
    expect((await approved.runtime.execute(escalated('fetch the docs'))).ok).toBe(true)
    expect(approved.ptcRuntime.requests[0]?.permissions).toBe('require_escalated')
    expect(reasons).toEqual([['The program asks for escalated sandbox permissions: fetch the docs']])
  })

  it('marks sub-calls escalated only inside an approved escalated program', async () => {
    const { runtime } = setup('both', { approve: () => true })
    const seen: string[] = []
    runtime.register(toolWith('probe', (_args, exec) => void seen.push(`body ${exec.callId}:${exec.escalated}`)))
    runtime.on('tools/execute', (exec, next) => {
      seen.push(`wrapper ${exec.callId}:${exec.escalated}`)
      return next()
    })
    const run = (id: string, permissions: string) =>
      call(
        'run_code',
        {
          code: JSON.stringify({ calls: [['probe', {}]] }),
          description: 'probe',
          sandbox_permissions: permissions,
          justification: 'needs network',
        },
        id,
      )
    await runtime.execute(call('probe', {}, 'top'))
    await runtime.execute(run('plain', 'use_default'))
    await runtime.execute(run('wide', 'require_escalated'))
    await runtime.execute(run('after', 'use_default'))
    expect(seen).toEqual([
      'wrapper top:false',
      'body top:false',
      'wrapper plain:false',
      'wrapper plain:ptc:1:false',
      'body plain:ptc:1:false',
      'wrapper wide:false',
      'wrapper wide:ptc:1:true',
      'body wide:ptc:1:true',
      'wrapper after:false',
      'wrapper after:ptc:1:false',
      'body after:ptc:1:false',
    ])

    const denied = setup('ptc', { approve: () => false })
    denied.runtime.register(toolWith('probe', (_args, exec) => void seen.push(`denied ${exec.escalated}`)))
    expect(expectFailure(await denied.runtime.execute(run('refused', 'require_escalated'))).error.code).toBe('DENIED')
    expect(seen).not.toContain('denied true')
    expect(seen).not.toContain('denied false')
  })

  it('settles every call even when the PTC runtime breaks while presenting', async () => {
    const ptcRuntime = createFakePtcRuntime()
    ptcRuntime.present = () => {
      throw new Error('renderer missing')
    }
    const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime })
    runtime.register(add)
    const single = await runtime.execute(program([]))
    expect(expectFailure(single).error.code).toBe('TOOL_ERROR')
    expect(expectFailure(single).error.message).toContain('renderer missing')
    const batch = await runtime.executeAll([program([]), call('add', { a: 1, b: 2 })])
    expect(batch.map((result) => (result.ok ? undefined : result.error.code))).toEqual(['TOOL_ERROR', 'UNKNOWN_TOOL'])
    expect(() => runtime.prompt()).toThrow('renderer missing')
  })

  it('cancels a program and its sub-calls with the caller signal', async () => {
    const { runtime, ptcRuntime, sessionLog } = setup('ptc')
    runtime.register(wait)
    const controller = new AbortController()
    const pending = runtime.execute(program([['wait', { ms: 60_000 }]]), { signal: controller.signal })
    await vi.waitFor(() => expect(sessionLog.records.some((record) => record.id === 'run-1:ptc:1')).toBe(true))
    controller.abort()
    const result = await pending
    expect(expectFailure(result).error.code).toBe('ABORTED')
    expect(ptcRuntime.requests[0]?.signal.aborted).toBe(true)
    // `wait` rejects with its signal's reason: it honoured the cancellation.
    expect(expectFailure(ptcRuntime.subResults[0]?.[0]).error.code).toBe('ABORTED')
  })

  it('passes a failed program through as its error', async () => {
    const { runtime, sessionLog } = setup('ptc')
    const result = await runtime.execute(program([], { fail: 'ReferenceError: x is not defined' }))
    expect(expectFailure(result).error).toEqual({
      code: 'CODE_RUN_FAILED',
      message: 'code run failed (runtime): ReferenceError: x is not defined',
    })
    expect(result.content).toEqual([
      { type: 'text', text: 'Error: code run failed (runtime): ReferenceError: x is not defined' },
    ])
    expect(sessionLog.records.at(-1)).toMatchObject({ ok: false, metadata: { subCalls: 0, bytesKeptOut: 0 } })
  })

  it('leaves the program deadline to the PTC runtime but times out its sub-calls', async () => {
    const { runtime } = setup('ptc')
    runtime.register(
      defineTool({
        name: 'stuck',
        description: 'Never ends.',
        parameters: {},
        execute: () => new Promise<string>(() => {}),
      }),
    )
    runtime.on('tools/execute', timeoutPolicy({ defaultMs: 5, graceMs: 0 }))
    const result = await runtime.execute(
      program([
        ['stuck', {}],
        ['add', { a: 1, b: 1 }],
      ]),
    )
    expect(result).toMatchObject({ ok: true, value: [{ error: 'TOOL_TIMEOUT' }, 2] })
  })

  it('schedules overlapping sub-calls under maxParallelSubCalls, exclusive ones alone', async () => {
    const { runtime } = setup('ptc', { maxParallelSubCalls: 2 })
    let running = 0
    let peak = 0
    let exclusiveOverlap = false
    let exclusiveRunning = false
    const tick = () => new Promise((resolve) => setImmediate(resolve))
    for (const [name, executionMode] of [
      ['slow_read', 'parallel'],
      ['slow_write', 'exclusive'],
    ] as const) {
      runtime.register(
        defineTool({
          name,
          description: name,
          parameters: {},
          executionMode,
          async execute() {
            if (exclusiveRunning || (executionMode === 'exclusive' && running > 0)) exclusiveOverlap = true
            running++
            exclusiveRunning = executionMode === 'exclusive'
            peak = Math.max(peak, running)
            await tick()
            await tick()
            running--
            exclusiveRunning = false
            return name
          },
        }),
      )
    }
    const calls: [string, unknown][] = [
      ['slow_read', {}],
      ['slow_read', {}],
      ['slow_read', {}],
      ['slow_write', {}],
      ['slow_read', {}],
      ['slow_read', {}],
    ]
    const result = await runtime.execute(program(calls, { together: true }))
    expect(expectSuccess(result).value).toEqual(calls.map(([name]) => name))
    expect(peak).toBe(2)
    expect(exclusiveOverlap).toBe(false)
  })

  it('cancels sub-calls still running when the program ends, so none keeps acting for a program that is gone', async () => {
    const { runtime, sessionLog } = setup('ptc')
    runtime.register(wait)
    const result = await runtime.execute(program([['wait', { ms: 60_000 }]], { abandon: true }))
    expect(expectFailure(result).error.code).toBe('CODE_RUN_FAILED')
    await vi.waitFor(() => {
      const settled = sessionLog.records.find(
        (record) => record.type === 'tool.call.settled' && record.id === 'run-1:ptc:1',
      )
      expect(settled).toMatchObject({ ok: false, error: { code: 'ABORTED' } })
    })
  })
})

describe('sub-calls as the pipeline receives them', () => {
  const outcomeOf = (values: unknown[]) => ({
    ok: true as const,
    value: values as never,
    content: [],
    metadata: { subCalls: values.length, bytesKeptOut: 0 },
  })

  it('reads arguments once and classifies the call once', async () => {
    const { runtime, ptcRuntime } = setup('ptc')
    let reads = 0
    let classified = 0
    runtime.register(
      defineTool({
        name: 'probe',
        description: 'probe',
        parameters: { n: { type: 'number', required: true } },
        executionMode: () => {
          classified++
          return 'parallel'
        },
        execute: ({ n }) => n,
      }),
    )
    ptcRuntime.run = async (request) => {
      const args = Object.defineProperty({}, 'n', {
        enumerable: true,
        get: () => {
          reads++
          return 1
        },
      })
      const result = await request.callTool('probe', args)
      return outcomeOf([result.ok ? result.value : result.error.code])
    }
    expect(expectSuccess(await runtime.execute(program([]))).value).toEqual([1])
    expect({ reads, classified }).toEqual({ reads: 1, classified: 1 })
  })

  it('fails hostile sub-call arguments and names cleanly, each with its code', async () => {
    const { runtime, ptcRuntime } = setup('ptc')
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    ptcRuntime.run = async (request) => {
      const results = [
        await request.callTool('echo', cyclic as never),
        await request.callTool('echo', '{"text":"not JSON text: a value"}'),
        await request.callTool({ toString: () => 'echo' } as never, { text: 'hi' }),
        await request.callTool('add', { a: Number.NaN, b: 1 } as never),
      ]
      return outcomeOf(results.map((result) => (result.ok ? result.value : result.error.code)))
    }
    const result = await runtime.execute(program([]))
    expect(expectSuccess(result).value).toEqual([
      'INVALID_ARGUMENTS',
      'INVALID_ARGUMENTS',
      'UNKNOWN_TOOL',
      'INVALID_ARGUMENTS',
    ])
  })

  it('fails a run whose runtime answers no outcome as a tool error', async () => {
    const { runtime, ptcRuntime } = setup('ptc')
    ptcRuntime.run = async () => ({ ok: 'yes' }) as never
    const result = await runtime.execute(program([]))
    expect(expectFailure(result).error).toEqual({
      code: 'TOOL_ERROR',
      message: 'run_code answered something other than an outcome.',
    })
  })

  it('removes its escalation listener when the runtime is closed', async () => {
    const escalated = call('run_code', {
      code: JSON.stringify({ calls: [] }),
      description: 'wide',
      sandbox_permissions: 'require_escalated',
    })
    const { runtime, ptcRuntime } = setup('ptc')
    expect(expectFailure(await runtime.execute(escalated)).error.code).toBe('INVALID_ARGUMENTS')
    await ptcRuntime.close()
    // The listener is gone, and with it the check; a closed runtime runs no program at all.
    const closed = expectFailure(await runtime.execute(escalated))
    expect(closed.error).toEqual({
      code: 'CODE_RUN_FAILED',
      message: 'code run failed (closed): the code-mode runtime was closed',
    })
    expect(ptcRuntime.requests).toHaveLength(0)
  })
})
