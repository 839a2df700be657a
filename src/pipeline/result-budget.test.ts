import { monitorEventLoopDelay } from 'node:perf_hooks'
import { describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../test/support/settled-result.js'
import { byteLength } from '../definition/byte-length.js'
import { type ContentPart, contentFallbackText } from '../definition/content.js'
import { defineTool } from '../definition/define-tool.js'
import { isToolDefinitionError } from '../definition/tool-definition-error.js'
import { createFakePtcRuntime } from '../ptc/__fixtures__/fake-ptc-runtime.js'
import { createMemorySessionLog } from '../session-log/memory-session-log.js'
import type { ToolCallSettledRecord } from '../session-log/session-log.js'
import { add, call } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'
import { cutNote, cutToBudget, DEFAULT_MAX_RESULT_BYTES } from './result-budget.js'
import { isToolRuntimeConfigError } from './runtime-config.js'

const textBytes = (content: readonly ContentPart[]) =>
  content.reduce((sum, part) => sum + (part.type === 'text' ? byteLength(part.text) : 0), 0)

function returning(name: string, produce: () => unknown, extra: { maxResultBytes?: number } = {}) {
  return defineTool({ name, description: `The ${name} tool.`, parameters: {}, ...extra, execute: produce as never })
}

function rendering(name: string, parts: () => readonly ContentPart[]) {
  return defineTool({
    name,
    description: `The ${name} tool.`,
    parameters: {},
    output: { schema: { type: 'string' }, render: parts },
    execute: () => 'rendered',
  })
}

function settledOf(log: ReturnType<typeof createMemorySessionLog>, id: string): ToolCallSettledRecord {
  const record = log.records.find((entry) => entry.id === id && entry.type === 'tool.call.settled')
  if (record?.type !== 'tool.call.settled') throw new Error(`no settled record for ${id}`)
  return record
}

/** Runs `work` while watching the event loop; answers its result and the longest the loop was blocked, in ms. */
async function watchingTheLoop<Value>(work: () => Promise<Value>): Promise<{ value: Value; maxDelayMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  try {
    const value = await work()
    return { value, maxDelayMs: histogram.max / 1e6 }
  } finally {
    histogram.disable()
  }
}

describe('the native result budget', () => {
  it('words the cut note for the model', () => {
    expect(cutNote('read_log', 99_850, 5_000_000)).toMatchInlineSnapshot(
      `"[Result cut: you see the first 99850 of 5000000 bytes; 4900150 bytes were left out. To read the rest, call read_log again for a smaller part, for example with an offset or a narrower query.]"`,
    )
  })

  it('cuts a 5,000,000-character result to 100 kB for the model; value and the session log keep it whole', async () => {
    const sessionLog = createMemorySessionLog()
    const runtime = createToolRuntime({ sessionLog })
    const huge = 'a'.repeat(5_000_000)
    runtime.register(returning('read_log', () => huge))
    runtime.register(add)
    const { value: results, maxDelayMs } = await watchingTheLoop(() =>
      Promise.all([runtime.execute(call('read_log')), runtime.execute(call('add', { a: 1, b: 2 }))]),
    )
    const [result, sum] = results.map((each) => expectSuccess(each))
    expect(result!.value).toBe(huge)
    expect(textBytes(result!.content)).toBeLessThanOrEqual(DEFAULT_MAX_RESULT_BYTES)
    const note = result!.content.at(-1)
    expect(note?.type === 'text' && note.text).toMatch(/^\[Result cut: you see the first \d+ of 5000000 bytes;/)
    const kept = result!.content[0]
    expect(kept?.type === 'text' && kept.text.length).toBeGreaterThan(DEFAULT_MAX_RESULT_BYTES - 300)
    expect(sum!.value).toBe(3)
    const record = settledOf(sessionLog, 'call-read_log')
    expect(record.content).toEqual(result!.content)
    expect(record.wholeContent).toEqual([{ type: 'text', text: huge }])
    expect(settledOf(sessionLog, 'call-add')).not.toHaveProperty('wholeContent')
    // A health ceiling, not a speed target: a host that blocked its loop for seconds would be down to its users.
    expect(maxDelayMs).toBeLessThan(2_000)
  })

  it('leaves a result that fits alone, to the byte', async () => {
    const runtime = createToolRuntime({ maxResultBytes: 10 })
    runtime.register(returning('exact', () => 'é'.repeat(5)))
    runtime.register(returning('over', () => 'éééééx'))
    expect(expectSuccess(await runtime.execute(call('exact'))).content).toEqual([{ type: 'text', text: 'ééééé' }])
    const over = expectSuccess(await runtime.execute(call('over')))
    expect(over.content).toEqual([{ type: 'text', text: cutNote('over', 0, 11) }])
    expect(over.value).toBe('ééééé' + 'x')
  })

  it('cuts on a code point boundary: never half a character, never half a surrogate pair', () => {
    for (const unit of ['é', '€', '😀', 'a€😀']) {
      for (let budget = 200; budget < 212; budget++) {
        const cut = cutToBudget([{ type: 'text', text: unit.repeat(200) }], budget, 't')
        const kept = cut?.content[0]
        if (kept?.type !== 'text') throw new Error('expected a kept text part')
        expect(kept.text).toBe(unit.repeat(200).slice(0, kept.text.length))
        expect(kept.text).not.toMatch(/[\uD800-\uDBFF]$/)
        expect(byteLength(kept.text)).toBe(cut!.shownBytes)
        expect(textBytes(cut!.content)).toBeLessThanOrEqual(budget)
      }
    }
  })

  it('keeps text parts in order up to the budget, drops the rest, and neither counts nor cuts images', () => {
    const image: ContentPart = { type: 'image', data: 'A'.repeat(1_000_000), mimeType: 'image/png' }
    const content: ContentPart[] = [
      { type: 'text', text: 'first part. ' },
      image,
      { type: 'text', text: 'x'.repeat(1_000) },
      { type: 'text', text: 'never shown' },
    ]
    const cut = cutToBudget(content, 400, 'screenshot')!
    expect(cut.content.map((part) => part.type)).toEqual(['text', 'image', 'text', 'text'])
    expect(cut.content[1]).toBe(image)
    expect(cut.content[0]).toBe(content[0])
    expect(cut.totalBytes).toBe(12 + 1_000 + 11)
    expect(textBytes(cut.content)).toBeLessThanOrEqual(400)
    expect(JSON.stringify(cut.content)).not.toContain('never shown')
    expect(cutToBudget([{ type: 'text', text: 'short' }, image], 400, 'screenshot')).toBeUndefined()
  })

  it('counts every other kind by the text a model reads for it, as code mode does, and cuts a text resource', () => {
    const audio: ContentPart = { type: 'audio', data: 'U'.repeat(500_000), mimeType: 'audio/wav' }
    const blob: ContentPart = { type: 'resource', resource: { uri: 'file:///a.bin', blob: 'B'.repeat(500_000) } }
    const link: ContentPart = { type: 'resource_link', uri: 'file:///notes.md', name: 'notes' }
    const document: ContentPart = { type: 'resource', resource: { uri: 'file:///log.txt', text: 'r'.repeat(5_000) } }
    const cut = cutToBudget([link, audio, blob, document, { type: 'text', text: 'after' }], 1_000, 'read_log')!
    expect(cut.content.slice(0, 3)).toEqual([link, audio, blob])
    const kept = cut.content[3]
    if (kept?.type !== 'resource' || !('text' in kept.resource)) throw new Error('expected the text resource, cut')
    expect(kept.resource.uri).toBe('file:///log.txt')
    expect(kept.resource.text).toMatch(/^r+$/)
    expect(cut.content.map((part) => part.type)).toEqual(['resource_link', 'audio', 'resource', 'resource', 'text'])
    const shown = cut.content.filter((part) => part !== audio && part !== blob)
    expect(shown.reduce((sum, part) => sum + byteLength(contentFallbackText(part)), 0)).toBeLessThanOrEqual(1_000)
    expect(cut.totalBytes).toBe(
      [link, document, { type: 'text' as const, text: 'after' }].reduce(
        (sum, part) => sum + byteLength(contentFallbackText(part)),
        0,
      ),
    )
  })

  it('bounds a result of 100,000 content parts, in order and with one note', async () => {
    const runtime = createToolRuntime()
    const parts = Array.from({ length: 100_000 }, (_, index) => ({ type: 'text' as const, text: `part ${index};` }))
    runtime.register(rendering('many_parts', () => parts))
    const { value: result, maxDelayMs } = await watchingTheLoop(() => runtime.execute(call('many_parts')))
    const content = expectSuccess(result).content
    expect(textBytes(content)).toBeLessThanOrEqual(DEFAULT_MAX_RESULT_BYTES)
    expect(content.length).toBeLessThan(20_000)
    expect(content[0]).toEqual({ type: 'text', text: 'part 0;' })
    expect(content.at(-1)).toMatchObject({ type: 'text', text: expect.stringMatching(/^\[Result cut: /) })
    expect(maxDelayMs).toBeLessThan(2_000)
  })

  it('fails a value nested too deeply to render with a tool error, and the host answers the next call', async () => {
    const runtime = createToolRuntime()
    runtime.register(
      returning('deep', () => {
        let value: unknown = 0
        for (let level = 0; level < 1_000_000; level++) value = [value]
        return value
      }),
    )
    runtime.register(
      returning('nested', () => JSON.parse(`${'['.repeat(500)}"${'z'.repeat(200_000)}"${']'.repeat(500)}`)),
    )
    runtime.register(add)
    const deep = expectFailure(await runtime.execute(call('deep')))
    expect(deep.error.code).toBe('TOOL_ERROR')
    expect(textBytes(deep.content)).toBeLessThanOrEqual(DEFAULT_MAX_RESULT_BYTES)
    const nested = expectSuccess(await runtime.execute(call('nested')))
    expect(textBytes(nested.content)).toBeLessThanOrEqual(DEFAULT_MAX_RESULT_BYTES)
    expect(expectSuccess(await runtime.execute(call('add', { a: 2, b: 2 }))).value).toBe(4)
  })

  it('cuts a failure message the same way: the model reads at most the budget', async () => {
    const sessionLog = createMemorySessionLog()
    const runtime = createToolRuntime({ sessionLog, maxResultBytes: 1_000 })
    runtime.register(
      returning('noisy', () => {
        throw new Error('b'.repeat(5_000_000))
      }),
    )
    const failed = expectFailure(await runtime.execute(call('noisy')))
    expect(failed.error.code).toBe('TOOL_ERROR')
    expect(textBytes(failed.content)).toBeLessThanOrEqual(1_000)
    expect(failed.error.message).toMatch(/^b+\n\[Result cut: you see the first \d+ of 5000000 bytes;/)
    const whole = settledOf(sessionLog, 'call-noisy').wholeContent?.[0]
    expect(whole?.type === 'text' && whole.text.length).toBe('Error: '.length + 5_000_000)
  })

  it("takes the definition's own budget over the runtime's", async () => {
    const runtime = createToolRuntime({ maxResultBytes: 50_000 })
    runtime.register(returning('small_budget', () => 'c'.repeat(1_000), { maxResultBytes: 500 }))
    runtime.register(returning('runtime_budget', () => 'c'.repeat(1_000)))
    expect(textBytes(expectSuccess(await runtime.execute(call('small_budget'))).content)).toBeLessThanOrEqual(500)
    expect(expectSuccess(await runtime.execute(call('runtime_budget'))).content).toEqual([
      { type: 'text', text: 'c'.repeat(1_000) },
    ])
  })

  it('cuts after finalizeContent and post-execute listeners, so neither can slip past the budget', async () => {
    const runtime = createToolRuntime({ maxResultBytes: 300 })
    runtime.register(
      defineTool({
        name: 'padded',
        description: 'Pads its result.',
        parameters: {},
        execute: () => 'short',
        finalizeContent: (content) => [...content, { type: 'text', text: 'd'.repeat(400) }],
      }),
    )
    runtime.on('tools/post-execute', () => ({ content: [{ type: 'text', text: 'e'.repeat(10_000) }] }))
    const content = expectSuccess(await runtime.execute(call('padded'))).content
    expect(textBytes(content)).toBeLessThanOrEqual(300)
    expect(content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^e+$/) })
  })

  it('leaves run_code to its code-mode limits; a sub-call is cut for the model and its value reaches the program', async () => {
    const ptcRuntime = createFakePtcRuntime()
    const runtime = createToolRuntime({ mode: 'both', ptcRuntime, maxResultBytes: 1_000 })
    runtime.register(returning('big', () => 'g'.repeat(5_000)))
    const program = { calls: [['big', {}]] }
    const run = await runtime.execute(call('run_code', { code: JSON.stringify(program), description: 'read big' }))
    expect(expectSuccess(run).content).toEqual([{ type: 'text', text: JSON.stringify(['g'.repeat(5_000)]) }])
    const [sub] = ptcRuntime.subResults[0]!
    expect(expectSuccess(sub).value).toBe('g'.repeat(5_000))
    expect(textBytes(sub!.content)).toBeLessThanOrEqual(1_000)
  })

  it.each([0, -1, 1.5, Number.NaN, '100'])('refuses maxResultBytes %s in the runtime and the definition', (bad) => {
    expect(() => createToolRuntime({ maxResultBytes: bad as number })).toThrow(
      expect.objectContaining({ field: 'maxResultBytes' }),
    )
    expect(isToolRuntimeConfigError(catching(() => createToolRuntime({ maxResultBytes: bad as number })))).toBe(true)
    const thrown = catching(() => returning('bad_budget', () => 1, { maxResultBytes: bad as number }))
    expect(isToolDefinitionError(thrown)).toBe(true)
    expect(String(thrown)).toContain('maxResultBytes')
  })
})

function catching(run: () => unknown): unknown {
  try {
    run()
  } catch (thrown) {
    return thrown
  }
  throw new Error('expected a throw')
}
