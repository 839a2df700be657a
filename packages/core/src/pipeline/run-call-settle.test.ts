import { describe, expect, it, vi } from 'vitest'
import { defineTool } from '../definition/define-tool.js'
import { createMemorySessionLog } from '../session-log/memory-session-log.js'
import { add, call, echo } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'

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
    expect(result).not.toHaveProperty('value')
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

  it('shows observers the call as the earlier events saw it, and none for a call refused before validation', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    const preExecuteCalls: unknown[] = []
    const resultCalls: unknown[] = []
    runtime.on('tools/pre-execute', (event) => {
      preExecuteCalls.push(event.call)
      return undefined
    })
    runtime.on('tools/result', (event) => {
      resultCalls.push(event.call)
    })
    await runtime.execute(call('add', { a: 1, b: 2 }))
    await runtime.execute(call('add', { a: 'one', b: 2 }))
    expect(resultCalls).toHaveLength(2)
    expect(resultCalls[0]).toBe(preExecuteCalls[0])
    expect(resultCalls[0]).toMatchObject({ name: 'add', arguments: { a: 1, b: 2 } })
    expect(resultCalls[1]).toBeUndefined()
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
