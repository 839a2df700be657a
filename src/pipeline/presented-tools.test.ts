import { describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
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
})
