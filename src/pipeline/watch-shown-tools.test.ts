import { describe, expect, it } from 'vitest'
import { defineTool } from '../definition/define-tool.js'
import { createFakePtcRuntime } from '../ptc/__fixtures__/fake-ptc-runtime.js'
import { add, echo } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'

const settled = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

function tool(name: string) {
  return defineTool({ name, description: `Tool ${name}.`, parameters: {}, execute: () => name })
}

describe('onToolsChanged', () => {
  it('fires once for a burst of registrations, and again when one is disposed', async () => {
    const runtime = createToolRuntime()
    let calls = 0
    runtime.onToolsChanged(() => calls++)
    const disposers = Array.from({ length: 200 }, (_, index) => runtime.register(tool(`t${index}`)))
    expect(calls).toBe(0)
    await settled()
    expect(calls).toBe(1)
    disposers[7]!.dispose()
    await settled()
    expect(calls).toBe(2)
  })

  it('stays quiet when a change leaves the scope as it was', async () => {
    const runtime = createToolRuntime()
    const alpha = runtime.agent('alpha')
    alpha.restrict({ deny: ['echo'] })
    await settled()
    let calls = 0
    alpha.onToolsChanged(() => calls++)
    runtime.agent('beta').register(add)
    runtime.register(echo)
    await settled()
    expect(calls).toBe(0)
    const removal = runtime.register(add)
    removal.dispose()
    await settled()
    expect(calls).toBe(0)
    runtime.register(add)
    await settled()
    expect(calls).toBe(1)
  })

  it('follows what the scope shows: inherited tools, masks, shadowing and the presentation mode', async () => {
    const runtime = createToolRuntime({ ptcRuntime: createFakePtcRuntime() })
    const agent = runtime.agent('a')
    const seen: string[][] = []
    agent.onToolsChanged(() => seen.push(agent.prompt().tools.map((schema) => schema.name)))
    runtime.register(add)
    await settled()
    const mask = agent.restrict({ deny: ['add'] })
    await settled()
    mask.dispose()
    await settled()
    const shadow = agent.register(
      defineTool({ name: 'add', description: 'Shadowing add.', parameters: {}, execute: () => 0 }),
    )
    await settled()
    shadow.dispose()
    const presentation = agent.presentAs('ptc')
    await settled()
    presentation.dispose()
    await settled()
    expect(seen).toEqual([['add'], [], ['add'], ['add'], ['run_code'], ['add']])
  })

  it('stops after its disposer, and a throwing listener neither fails the registration nor silences others', async () => {
    const runtime = createToolRuntime()
    let calls = 0
    const watching = runtime.onToolsChanged(() => calls++)
    runtime.onToolsChanged(() => {
      throw new Error('listener failed')
    })
    let later = 0
    runtime.onToolsChanged(() => later++)
    expect(() => runtime.register(add)).not.toThrow()
    await settled()
    watching.dispose()
    runtime.register(echo)
    await settled()
    expect([calls, later]).toEqual([1, 2])
    expect(() => runtime.onToolsChanged('not a function' as never)).toThrow(TypeError)
  })
})
