import { describe, expect, it, vi } from 'vitest'
import { expectFailure } from '../../../../test/support/settled-result.js'
import { add, call, toolWith } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'

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
    expect(result).not.toHaveProperty('value')
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
      expect(expectFailure(result).error.code).toBe('INVALID_ARGUMENTS')
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
    expect(expectFailure(result).error).toEqual({
      code: 'DENIED',
      message: 'Not today.',
      userMessage: 'Blocked by policy X',
    })
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
    expect(expectFailure(result).error.code).toBe('DENIED')
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
    expect(expectFailure(result).error).toMatchObject({ code: 'DENIED', message })
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
    expect(expectFailure(result).error.code).toBe('DENIED')
    expect(expectFailure(result).error.message).toContain('approver down')
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
    expect(expectFailure(await runtime.execute(call('add', { a: 13, b: 2 }))).error).toEqual({
      code: 'DENIED',
      message: 'Unlucky number.',
    })
    guard.dispose()
    runtime.guard(() => {
      throw new Error('broken guard')
    })
    expect(expectFailure(await runtime.execute(call('add', { a: 1, b: 2 }))).error.code).toBe('LISTENER_ERROR')
  })

  it('turns a throwing or nonsensical listener into LISTENER_ERROR', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    const throwing = runtime.on('tools/pre-execute', () => {
      throw new Error('listener broke')
    })
    const first = await runtime.execute(call('add', { a: 1, b: 2 }))
    expect(expectFailure(first).error.code).toBe('LISTENER_ERROR')
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
    expect(expectFailure(await runtime.execute(call('add', { a: 1, b: 2 }))).error.code).toBe('LISTENER_ERROR')
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
