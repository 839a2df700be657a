import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { isToolRuntimeError } from '../errors/tool-runtime-error.js'
import { ScopedRegistry } from '../registry/scoped-registry.js'
import { add, call, echo, toolWith } from './__fixtures__/tools.js'
import { createToolRuntime, openRuntime } from './create-tool-runtime.js'
import { ListenerRegistry } from './listener-registry.js'
import { presentedTools } from './presented-tools.js'
import type { AgentRuntime, ToolRuntime } from './tool-runtime.js'

function observedRuntime(): { runtime: ToolRuntime; registry: ScopedRegistry } {
  const registry = new ScopedRegistry()
  const core = {
    registry,
    listeners: new ListenerRegistry(),
    approve: undefined,
    sessionLog: undefined,
    defaultMode: 'native' as const,
    maxParallelCalls: 4,
    maxParallelSubCalls: 4,
    maxResultBytes: 100_000,
    presenter: undefined,
    presented: presentedTools,
  }
  return { runtime: openRuntime(core), registry }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('agent views', () => {
  it('leaves no layer behind for 10,000 agents opened, filled and disposed', async () => {
    const { runtime, registry } = observedRuntime()
    let changes = 0
    for (let index = 0; index < 10_000; index++) {
      const agent = runtime.agent(`agent-${index}`)
      agent.register(toolWith(`tool_${index}`, () => index))
      agent.restrict({ deny: ['add'] })
      agent.presentAs('native')
      agent.on('tools/pre-execute', () => undefined)
      agent.guard(() => undefined)
      agent.onToolsChanged(() => void changes++)
      expect(registry.agentCount).toBe(1)
      agent.dispose()
    }
    expect(registry.agentCount).toBe(0)
    runtime.register(add)
    await settle()
    expect(changes).toBe(0)
  })

  it('keeps a heap flat across 10,000 disposed agents, where holding them grows it', () => {
    const host = fileURLToPath(new URL('./__fixtures__/agent-churn.ts', import.meta.url))
    const growth = (scenario: string) =>
      (
        JSON.parse(
          execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', host, scenario], { encoding: 'utf8' }),
        ) as { growth: number }
      ).growth
    const held = growth('held')
    const released = growth('released')
    expect(held).toBeGreaterThan(10_000_000)
    expect(released).toBeLessThan(held / 20)
  }, 60_000)

  it('drops the masks, listeners, guards and presentation of a released agent', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    const seen: string[] = []
    const first = runtime.agent('a')
    first.restrict({ deny: ['add'] })
    first.on('tools/pre-execute', () => void seen.push('listener'))
    first.guard(() => {
      seen.push('guard')
      return undefined
    })
    first.register(echo)
    expect(first.get('add')).toBeUndefined()
    first.dispose()

    const again = runtime.agent('a')
    expect(again.schemas().map((schema) => schema.name)).toEqual(['add'])
    expect((await again.execute(call('add', { a: 1, b: 2 }))).value).toBe(3)
    expect((await again.execute(call('echo', { text: 'hi' }))).error?.code).toBe('UNKNOWN_TOOL')
    expect(seen).toEqual([])
  })

  it('lets a leftover disposer of a released agent touch nothing in the agent re-created under its id', () => {
    const runtime = createToolRuntime()
    const first = runtime.agent('a')
    const registration = first.register(add)
    const mask = first.restrict({ deny: ['echo'] })
    first.dispose()
    const again = runtime.agent('a')
    again.register(add)
    again.restrict({ allow: ['nothing'] })
    registration.dispose()
    mask.dispose()
    expect(again.get('add')).toBe(add)
    runtime.register(echo)
    expect(again.get('echo')).toBeUndefined()
  })

  it('keeps the scope while any view of the id is held, and releases it with the last', () => {
    const { runtime, registry } = observedRuntime()
    const first = runtime.agent('a')
    const second = runtime.agent('a')
    first.register(add)
    first.dispose()
    first.dispose()
    expect(second.get('add')).toBe(add)
    expect(registry.agentCount).toBe(1)
    {
      using _third = runtime.agent('a')
    }
    expect(registry.agentCount).toBe(1)
    second[Symbol.dispose]()
    expect(registry.agentCount).toBe(0)
    expect(runtime.agent('a').get('add')).toBeUndefined()
  })

  it('refuses every use of a disposed view with a ToolRuntimeError, and keeps its id readable', () => {
    const runtime = createToolRuntime()
    const agent = runtime.agent('gone')
    agent.dispose()
    const uses: [string, (view: AgentRuntime) => unknown][] = [
      ['register', (view) => view.register(add)],
      ['restrict', (view) => view.restrict({ deny: ['add'] })],
      ['guard', (view) => view.guard(() => undefined)],
      ['on', (view) => view.on('tools/result', () => {})],
      ['presentAs', (view) => view.presentAs('native')],
      ['onToolsChanged', (view) => view.onToolsChanged(() => {})],
      ['get', (view) => view.get('add')],
      ['schemas', (view) => view.schemas()],
      ['prompt', (view) => view.prompt()],
      ['execute', (view) => view.execute(call('add', { a: 1, b: 2 }))],
      ['executeAll', (view) => view.executeAll([call('add', { a: 1, b: 2 })])],
      ['agent', (view) => view.agent('other')],
      ['presentCall', (view) => view.presentCall(call('add', {}))],
      ['presentResult', (view) => view.presentResult(call('add', {}), { ok: true, content: [] } as never)],
    ]
    for (const [method, use] of uses) {
      let thrown: unknown
      try {
        use(agent)
      } catch (error) {
        thrown = error
      }
      expect(isToolRuntimeError(thrown), method).toBe(true)
      expect((thrown as Error).message).toBe(
        `${method}: the view of agent "gone" was disposed; runtime.agent(id) opens a new one`,
      )
    }
    expect(agent.agentId).toBe('gone')
  })

  it('settles a call in flight when its agent is released exactly once, in the scope it started in', async () => {
    const runtime = createToolRuntime()
    let finish: (value: string) => void = () => {}
    const slow = toolWith('slow', () => new Promise<string>((resolve) => (finish = resolve)))
    const agent = runtime.agent('a')
    agent.register(slow)
    const results: string[] = []
    agent.on('tools/result', (event) => void results.push(`agent:${event.result.ok}`))
    runtime.on('tools/result', (event) => void results.push(`global:${event.result.ok}`))
    const pending = agent.execute(call('slow', {}))
    await settle()
    agent.dispose()
    finish('done')
    const result = await pending
    expect(result.ok).toBe(true)
    expect(result.value).toBe('done')
    await settle()
    expect(results.sort()).toEqual(['agent:true', 'global:true'])
  })
})
