import { createFakePtcRuntime } from '@qilin-tools/code-mode/internal/__fixtures__/fake-ptc-runtime.js'
import { describe, expect, it } from 'vitest'
import { defineTool } from '../definition/define-tool.js'
import { add, echo, toolWith } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'

const ping = defineTool({ name: 'ping', description: 'Ping.', parameters: {}, execute: () => 'pong' })
const textOf = (result: { content: readonly { type: string; text?: string }[] }) => result.content[0]?.text

describe('resolveCall: empty argument text', () => {
  it('reads "" and whitespace as {} for a tool with no required key', async () => {
    const runtime = createToolRuntime()
    runtime.register(ping)
    runtime.register(toolWith('maybe', (args) => args.x ?? 'none'))
    for (const text of ['', ' ', '\n\t\r ']) {
      expect(await runtime.execute({ id: '1', name: 'ping', arguments: text })).toMatchObject({
        ok: true,
        value: 'pong',
      })
      expect(await runtime.execute({ id: '2', name: 'maybe', arguments: text })).toMatchObject({
        ok: true,
        value: 'none',
      })
    }
  })

  it('fails empty text as INVALID_ARGUMENTS naming what is required', async () => {
    const runtime = createToolRuntime()
    runtime.register(add)
    const result = await runtime.execute({ id: '1', name: 'add', arguments: '  ' })
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } })
    expect(textOf(result)).toMatchInlineSnapshot(
      `"Error: Invalid arguments for add: the arguments were empty; at (root): missing required property "a"; at (root): missing required property "b""`,
    )
  })

  it('still refuses whitespace past the byte cap, and quickly', async () => {
    const runtime = createToolRuntime()
    runtime.register(ping)
    const started = performance.now()
    const result = await runtime.execute({ id: '1', name: 'ping', arguments: ' '.repeat(4 * 1024 * 1024) })
    expect(performance.now() - started).toBeLessThan(1000)
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } })
  })
})

describe('resolveCall: unknown tool names', () => {
  const named = (name: string) => toolWith(name, () => 'ok')

  it('names up to three nearest visible tools', async () => {
    const runtime = createToolRuntime()
    for (const name of ['get_weather', 'get_wetter', 'set_weather', 'get_whether', 'list_files']) {
      runtime.register(named(name))
    }
    const result = await runtime.execute({ id: '1', name: 'get_wether', arguments: '{}' })
    expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } })
    expect(textOf(result)).toMatchInlineSnapshot(
      `"Error: Unknown tool "get_wether". Did you mean "get_weather", "get_wetter" or "get_whether"?"`,
    )
  })

  it('suggests nothing when no name is near', async () => {
    const runtime = createToolRuntime()
    runtime.register(named('list_files'))
    const result = await runtime.execute({ id: '1', name: 'get_wether', arguments: '{}' })
    expect(textOf(result)).toBe('Error: Unknown tool "get_wether".')
  })

  it("never suggests a masked tool or another agent's tool", async () => {
    const runtime = createToolRuntime()
    runtime.register(named('get_weather'))
    runtime.register(named('get_water'))
    runtime.restrict({ deny: ['get_weather'] })
    const other = runtime.agent('other')
    other.register(named('get_wethers'))
    const self = runtime.agent('self')
    const result = await self.execute({ id: '1', name: 'get_wether', arguments: '{}' })
    expect(textOf(result)).toBe('Error: Unknown tool "get_wether". Did you mean "get_water"?')
    const global = await runtime.execute({ id: '2', name: 'get_wether', arguments: '{}' })
    expect(textOf(global)).toBe('Error: Unknown tool "get_wether". Did you mean "get_water"?')
  })

  it('suggests what the presentation lets the model call: run_code under ptc, the tools in a program', async () => {
    const ptcRuntime = createFakePtcRuntime()
    const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime })
    runtime.register(echo)
    expect(textOf(await runtime.execute({ id: '1', name: 'echo', arguments: '{}' }))).toBe(
      'Error: Unknown tool "echo".',
    )
    expect(textOf(await runtime.execute({ id: '2', name: 'run_cod', arguments: '{}' }))).toBe(
      'Error: Unknown tool "run_cod". Did you mean "run_code"?',
    )
    const code = JSON.stringify({
      calls: [
        ['ecko', { text: 'hi' }],
        ['run_code', {}],
      ],
    })
    await runtime.execute({ id: '3', name: 'run_code', arguments: JSON.stringify({ code, description: 'test' }) })
    const [misspelt, nested] = ptcRuntime.subResults[0]!
    expect(misspelt?.content[0]).toMatchObject({ text: 'Error: Unknown tool "ecko". Did you mean "echo"?' })
    expect(nested?.content[0]).toMatchObject({ text: 'Error: Unknown tool "run_code".' })
  })

  it('quotes at most 80 characters of an unknown name back to the model', async () => {
    const runtime = createToolRuntime()
    const result = await runtime.execute({ id: '1', name: `a${'b'.repeat(1024 * 1024)}`, arguments: '{}' })
    expect(textOf(result)).toBe(`Error: Unknown tool "a${'b'.repeat(79)}…" (1048577 characters).`)
  })

  it('answers a 1 MB unknown name at once, with a responsive host', async () => {
    const runtime = createToolRuntime()
    for (let index = 0; index < 2000; index++) runtime.register(named(`tool_${index}_${'x'.repeat(index % 50)}`))
    const huge = 'x'.repeat(1024 * 1024)
    const started = performance.now()
    const results = await Promise.all(
      [huge, `tool_1_${huge}`, huge.slice(0, 60), huge.slice(0, 70)].map((name, id) =>
        runtime.execute({ id: String(id), name, arguments: '{}' }),
      ),
    )
    const elapsed = performance.now() - started
    // Not a speed target: suggesting by edit distance against the whole 1 MB name would take minutes; a bound far
    // above the usual few milliseconds only catches that, on a loaded shared machine too (200 ms failed there).
    expect(elapsed).toBeLessThan(2_000)
    for (const result of results) expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } })
  })
})
