import { describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import { jsonSchema } from '../schema/json-schema-spec.js'
import { add, call } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'
import type { ToolPresenter } from './tool-presenter.js'

/** A presenter with no code mode in it: one `twice` tool that calls a visible tool twice through its sub-calls. */
function twicePresenter(name = 'twice'): ToolPresenter & { installs: number } {
  const presenter = {
    installs: 0,
    reservedNames: ['twice'],
    install() {
      presenter.installs++
      return { dispose() {}, [Symbol.dispose]() {} }
    },
    presentTools: ((visible, _mode, subCalls) => {
      const bindings = new Map(visible.map((entry) => [entry.name, entry]))
      const tool = defineTool({
        name,
        description: `Calls one of ${visible.map((entry) => entry.name).join(', ')} twice.`,
        parameters: { tool: { type: 'string', required: true }, args: { type: 'object', required: true } },
        execute: async ({ tool: target, args }, exec) => {
          const run = subCalls.open({ parentId: exec.callId, escalated: false }, exec.signal)
          const results = await Promise.all(
            [1, 2].map((n) =>
              run({ id: `${exec.callId}/${n}`, name: target, arguments: args, binding: bindings.get(target) }),
            ),
          )
          return results.map((result) => (result.ok ? result.value : result.error.code))
        },
      })
      return { tools: [tool], sections: [{ id: 'twice', order: 1, text: 'Use twice.', interpolate: false }] }
    }) satisfies ToolPresenter['presentTools'],
  }
  return presenter
}

describe('a presentation other than native, through the ToolPresenter port alone', () => {
  it('shows and runs the presenter’s tools, reserves their names and installs it once', async () => {
    const presenter = twicePresenter()
    const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime: presenter })
    runtime.register(add)
    expect(presenter.installs).toBe(1)
    expect(runtime.prompt().tools.map((tool) => tool.name)).toEqual(['twice'])
    expect(runtime.prompt().sections.map((section) => section.id)).toEqual(['twice'])
    const result = await runtime.execute(call('twice', { tool: 'add', args: { a: 1, b: 2 } }, 'outer'))
    expect(expectSuccess(result).value).toEqual([3, 3])
    expect(expectFailure(await runtime.execute(call('add', { a: 1, b: 2 }))).error.code).toBe('UNKNOWN_TOOL')
    const taken = defineTool({ name: 'twice', description: 'x', parameters: {}, execute: () => 1 })
    expect(() => runtime.register(taken)).toThrow(/reserved/)
  })

  it('settles a call to a presented tool outside its reserved names as a tool error', async () => {
    const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime: twicePresenter('other') })
    const result = await runtime.execute(call('twice', { tool: 'add', args: {} }))
    expect(expectFailure(result).error.message).toContain(
      "presentTools: other is not one of the presenter's reservedNames",
    )
    expect(() => runtime.prompt()).toThrow(/reservedNames/)
  })

  it('holds the registered tools it lists under both to the native prompt budget, naming what it left out', () => {
    const runtime = createToolRuntime({ mode: 'both', ptcRuntime: twicePresenter() })
    runtime.register(add)
    const alone = runtime.prompt()
    // A million-value enum, as a hostile MCP server may declare: about 9 MB as JSON text.
    const values = Array.from({ length: 1_000_000 }, (_, index) => `v${index}`)
    const hostile = jsonSchema({ type: 'object', properties: { pick: { type: 'string', enum: values } } })
    runtime.register(
      defineTool({ name: 'evil', description: 'Looks harmless.', parameters: hostile, execute: () => 1 }),
    )
    const prompt = runtime.prompt()
    expect(prompt.tools.map((tool) => tool.name)).toEqual(alone.tools.map((tool) => tool.name))
    // This presenter names every visible tool in its own description; the registered tools are listed as before.
    expect(JSON.stringify(prompt.tools[0])).toBe(JSON.stringify(alone.tools[0]))
    expect(prompt.omitted).toEqual([{ name: 'evil', reason: 'its schema takes more than 131072 bytes' }])
  })

  it('under both with tool search on, holds what it lists beside search_tools to the same budget', () => {
    const runtime = createToolRuntime({ mode: 'both', ptcRuntime: twicePresenter(), toolSearch: { threshold: 2 } })
    for (const name of ['one', 'two', 'three']) {
      runtime.register(defineTool({ name, description: `Tool ${name}.`, parameters: {}, execute: () => 1 }))
    }
    const values = Array.from({ length: 1_000_000 }, (_, index) => `v${index}`)
    const hostile = jsonSchema({ type: 'object', properties: { pick: { type: 'string', enum: values } } })
    runtime.register(
      defineTool({
        name: 'evil',
        description: 'Always listed.',
        parameters: hostile,
        deferLoading: false,
        execute: () => 1,
      }),
    )
    const prompt = runtime.prompt()
    expect(prompt.tools.map((tool) => tool.name)).not.toContain('evil')
    expect(prompt.tools.map((tool) => tool.name)).toContain('search_tools')
    expect(prompt.omitted).toContainEqual({ name: 'evil', reason: 'its schema takes more than 131072 bytes' })
  })
})
