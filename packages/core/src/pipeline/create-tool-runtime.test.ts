import { describe, expect, it } from 'vitest'
import { expectSuccess } from '../../../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import { createMemorySessionLog } from '../session-log/memory-session-log.js'
import { add, call, echo } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'
import { ToolRuntimeConfigError } from './runtime-config.js'

describe('createToolRuntime config', () => {
  it.each([
    [{ mode: 'sideways' }, 'mode'],
    [{ maxParallelCalls: 0 }, 'maxParallelCalls'],
    [{ maxParallelCalls: 1.5 }, 'maxParallelCalls'],
    [{ maxParallelSubCalls: -1 }, 'maxParallelSubCalls'],
    [{ approve: 'yes' }, 'approve'],
    [{ sessionLog: {} }, 'sessionLog'],
    [{ ptcRuntime: { run: () => {} } }, 'ptcRuntime'],
    [{ mode: 'ptc' }, 'ptcRuntime'],
    [{ mode: 'both' }, 'ptcRuntime'],
    [{ maxParalelCalls: 2 }, 'maxParalelCalls'],
  ])('rejects %j naming %s', (config, field) => {
    let thrown: unknown
    try {
      createToolRuntime(config as never)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ToolRuntimeConfigError)
    expect((thrown as ToolRuntimeConfigError).field).toBe(field)
    expect((thrown as Error).message).toContain(`config.${field}`)
  })

  it('accepts no config and every valid field', () => {
    expect(createToolRuntime().agentId).toBeUndefined()
    const runtime = createToolRuntime({
      mode: 'native',
      maxParallelCalls: 3,
      maxParallelSubCalls: 1,
      approve: () => true,
      sessionLog: createMemorySessionLog(),
    })
    expect(runtime.schemas()).toEqual([])
  })
})

describe('ToolRuntime', () => {
  it('runs a validated call from JSON text or from an object', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    const fromText = await runtime.execute(call('add', { a: 2, b: 3 }))
    expect(fromText).toMatchObject({ id: 'call-add', name: 'add', ok: true, value: 5 })
    expect(fromText.content).toEqual([{ type: 'text', text: '5' }])
    expect(fromText.durationMs).toBeGreaterThanOrEqual(0)
    const fromObject = await runtime.execute({ id: 'o', name: 'add', arguments: { a: 1, b: 1 } })
    expect(expectSuccess(fromObject).value).toBe(2)
    expect(Object.isFrozen(fromObject)).toBe(true)
  })

  it('renders a string value as itself', async () => {
    const runtime = createToolRuntime()
    runtime.register(echo)
    const result = await runtime.execute(call('echo', { text: 'hi "there"' }))
    expect(result.content).toEqual([{ type: 'text', text: 'hi "there"' }])
  })

  it('throws on a second tool of the same name in one scope, and lets an agent shadow a global', () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    expect(() => runtime.register(add)).toThrow(/already registered in the global scope/)
    const agent = runtime.agent('a1')
    agent.register(add)
    expect(() => agent.register(add)).toThrow(/already registered in agent a1/)
  })

  it('shares one scope between the views of one agent id, and agent() from a view reaches its siblings', () => {
    const runtime = createToolRuntime()
    const first = runtime.agent('x')
    first.register(add)
    expect(runtime.agent('x').get('add')).toBe(add)
    runtime.agent('x').agent('y').register(echo)
    expect(runtime.agent('y').get('echo')).toBe(echo)
    expect(first.get('echo')).toBeUndefined()
    expect(runtime.agent('x').agentId).toBe('x')
  })

  it('gives disposers that work once and with `using`', () => {
    const runtime = createToolRuntime()
    const registration = runtime.register(add)
    registration.dispose()
    registration.dispose()
    expect(runtime.get('add')).toBeUndefined()
    {
      using _scoped = runtime.register(add)
      expect(runtime.get('add')).toBe(add)
    }
    expect(runtime.get('add')).toBeUndefined()
  })

  it('disposing an old registration does not remove a newer one of the same name', () => {
    const runtime = createToolRuntime()
    const first = runtime.register(add)
    first.dispose()
    runtime.register(add)
    first.dispose()
    expect(runtime.get('add')).toBe(add)
  })

  it('reserves run_code only when a PTC runtime is configured', () => {
    const runCode = defineTool({ name: 'run_code', description: 'x', parameters: {}, execute: () => 1 })
    expect(() => createToolRuntime().register(runCode)).not.toThrow()
  })

  it('never rejects on a malformed call', async () => {
    const runtime = createToolRuntime()
    const result = await runtime.execute(null as never)
    expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } })
  })

  it('hands host cards out through presentCall and presentResult, never into content', async () => {
    const runtime = createToolRuntime()
    const card = defineTool({
      name: 'card',
      description: 'A tool with cards.',
      parameters: { path: { type: 'string', required: true } },
      execute: ({ path }) => path.length,
      presentCall: ({ path }) => ({ card: 'file', title: path }),
      presentResult: ({ path }, value) => ({ card: 'file-result', props: { path, size: value } }),
    })
    runtime.register(card)
    const theCall = call('card', { path: '/a' })
    const result = await runtime.execute(theCall)
    expect(result.content).toEqual([{ type: 'text', text: '2' }])
    expect(runtime.presentCall(theCall)).toEqual({ card: 'file', title: '/a' })
    expect(runtime.presentResult(theCall, result)).toEqual({ card: 'file-result', props: { path: '/a', size: 2 } })
    expect(runtime.presentCall(call('add', { a: 1, b: 2 }))).toBeUndefined()
    expect(JSON.stringify(runtime.schemas())).not.toContain('presentCall')
  })
})
