import { describe, expect, it } from 'vitest'
import { expectSuccess } from '../../../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import { createToolRuntime } from '../pipeline/create-tool-runtime.js'
import type { ToolRuntime } from '../pipeline/tool-runtime.js'

const tool = (name: string, description = `The ${name} tool.`) =>
  defineTool({
    name,
    description,
    parameters: { x: { type: 'number' } },
    output: { schema: { type: 'string' } },
    timeoutMs: 1000,
    execute: () => description,
  })

const names = (runtime: ToolRuntime) => runtime.schemas().map((schema) => schema.name)

/** What execute accepts, probed through the pipeline. */
async function callable(runtime: ToolRuntime, candidates: readonly string[]) {
  const accepted: string[] = []
  for (const name of candidates) {
    const result = await runtime.execute({ id: name, name, arguments: '{}' })
    if (result.ok || result.error.code !== 'UNKNOWN_TOOL') accepted.push(name)
  }
  return accepted
}

describe('scopes', () => {
  it('agents inherit globals and may add or shadow their own', async () => {
    const runtime = createToolRuntime()
    runtime.register(tool('read'))
    runtime.register(tool('write'))
    const agent = runtime.agent('coder')
    const shadow = tool('read', 'The agent read.')
    agent.register(shadow)
    agent.register(tool('lint'))
    expect(names(runtime)).toEqual(['read', 'write'])
    expect(names(agent)).toEqual(['lint', 'read', 'write'])
    expect(agent.get('read')).toBe(shadow)
    expect(runtime.get('read')).not.toBe(shadow)
    expect(names(runtime.agent('other'))).toEqual(['read', 'write'])
    expect(expectSuccess(await agent.execute({ id: '1', name: 'read', arguments: {} })).value).toBe('The agent read.')
  })

  it('masks hide inherited globals, intersect, keep scoped tools visible, and lift exactly when disposed', () => {
    const runtime = createToolRuntime()
    for (const name of ['a', 'b', 'c', 'd']) runtime.register(tool(name))
    const agent = runtime.agent('x')
    agent.register(tool('own'))
    const allow = agent.restrict({ allow: ['a', 'b', 'c'] })
    expect(names(agent)).toEqual(['a', 'b', 'c', 'own'])
    const deny = agent.restrict({ deny: ['b'] })
    expect(names(agent)).toEqual(['a', 'c', 'own'])
    const predicate = agent.restrict((definition) => definition.name !== 'c')
    expect(names(agent)).toEqual(['a', 'own'])
    deny.dispose()
    expect(names(agent)).toEqual(['a', 'b', 'own'])
    allow.dispose()
    predicate.dispose()
    expect(names(agent)).toEqual(['a', 'b', 'c', 'd', 'own'])
    expect(names(runtime)).toEqual(['a', 'b', 'c', 'd'])
  })

  it('a global mask applies in every scope, intersecting with an agent mask', () => {
    const runtime = createToolRuntime()
    for (const name of ['a', 'b', 'c']) runtime.register(tool(name))
    const agent = runtime.agent('x')
    agent.register(tool('b'))
    runtime.restrict({ deny: ['a', 'b'] })
    agent.restrict({ deny: ['c'] })
    expect(names(runtime)).toEqual(['c'])
    expect(names(agent)).toEqual(['b'])
  })

  it('schemas() shows exactly what execute accepts, in every scope', async () => {
    const runtime = createToolRuntime()
    for (const name of ['a', 'b', 'c']) runtime.register(tool(name))
    const agent = runtime.agent('x')
    agent.register(tool('z'))
    agent.restrict({ allow: ['b'] })
    const everyName = ['a', 'b', 'c', 'z', 'missing']
    expect(await callable(runtime, everyName)).toEqual(names(runtime))
    expect(await callable(agent, everyName)).toEqual(names(agent))
    expect(await callable(runtime.agent('y'), everyName)).toEqual(names(runtime.agent('y')))
  })

  it('schemas() carries only name, description and parameters, sorted byte-stably whatever the order', () => {
    const order = ['b', 'B', 'a_1', 'a', '_x', 'Z', 'a-1']
    const first = createToolRuntime()
    const second = createToolRuntime()
    for (const name of order) first.register(tool(name))
    for (const name of [...order].reverse()) second.register(tool(name))
    expect(JSON.stringify(first.schemas())).toBe(JSON.stringify(second.schemas()))
    expect(names(first)).toEqual(['B', 'Z', '_x', 'a', 'a-1', 'a_1', 'b'])
    for (const schema of first.schemas()) expect(Object.keys(schema)).toEqual(['name', 'description', 'parameters'])
    expect(first.schemas()[0]).toMatchInlineSnapshot(`
      {
        "description": "The B tool.",
        "name": "B",
        "parameters": {
          "additionalProperties": false,
          "properties": {
            "x": {
              "type": "number",
            },
          },
          "type": "object",
        },
      }
    `)
  })

  it('prompt() in native mode is the schemas and no sections', () => {
    const runtime = createToolRuntime()
    runtime.register(tool('a'))
    expect(runtime.prompt()).toEqual({ tools: runtime.schemas(), sections: [] })
  })

  it('rejects a PTC presentation without a PTC runtime', () => {
    const runtime = createToolRuntime()
    expect(() => runtime.agent('x').presentAs('ptc')).toThrow(/ptcRuntime/)
    expect(() => runtime.presentAs('both')).toThrow(/ptcRuntime/)
  })

  it('rejects a malformed filter', () => {
    expect(() => createToolRuntime().restrict({ only: ['a'] } as never)).toThrow(TypeError)
  })
})
