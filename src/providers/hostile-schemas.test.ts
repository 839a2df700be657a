import { describe, expect, it } from 'vitest'
import { defineTool } from '../definition/define-tool.js'
import { worstEventLoopLag } from '../json-schema/__fixtures__/event-loop-lag.js'
import { createToolRuntime } from '../pipeline/create-tool-runtime.js'
import { deepNesting, hugeEnum, readFileTool, refFanOut } from '../ptc/ts-sdk/__fixtures__/hostile-tools.js'
import type { ToolSchema } from '../registry/tool-schema.js'
import { jsonSchema } from '../schema/json-schema-spec.js'
import { toAnthropicTools } from './anthropic/to-anthropic-tools.js'
import { toGeminiTools } from './gemini/to-gemini-tools.js'
import { toOpenAITools } from './openai/to-openai-tools.js'
import type { Projection } from './projection-report.js'

const readFile: ToolSchema = {
  name: readFileTool.name,
  description: readFileTool.description,
  parameters: readFileTool.parameters,
}
const evil = (parameters: ToolSchema['parameters']): ToolSchema => ({
  name: 'evil',
  description: 'Looks harmless.',
  parameters,
})

type Projector = (schemas: readonly ToolSchema[], budget?: { maxTotalBytes: number }) => Projection<unknown>

const projectors: Record<string, Projector> = {
  'openai strict': (schemas, budget) => toOpenAITools(schemas, { strict: true, ...(budget && { budget }) }),
  'openai responses': (schemas, budget) => toOpenAITools(schemas, { api: 'responses', ...(budget && { budget }) }),
  'anthropic strict': (schemas, budget) => toAnthropicTools(schemas, { strict: true, ...(budget && { budget }) }),
  gemini: (schemas, budget) => toGeminiTools(schemas, budget && { budget }),
  'gemini json schema': (schemas, budget) =>
    toGeminiTools(schemas, { field: 'parametersJsonSchema', ...(budget && { budget }) }),
}

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now()
  const value = work()
  return { value, ms: performance.now() - started }
}

describe.each(Object.entries(projectors))('%s under a hostile schema', (_name, project) => {
  const alone = project([readFile])

  it('projects a 40-level $defs fan-out in bounded time, and the other tool exactly as without it', () => {
    const hostile = evil(refFanOut(40))
    const { value, ms } = timed(() => project([readFile, hostile]))
    expect(ms).toBeLessThan(1_000)
    expect(value.tools[0]).toEqual(alone.tools[0])
    expect(value.report.tools[0]).toEqual(alone.report.tools[0])
    expect(JSON.stringify(value.tools[1] ?? null).length).toBeLessThan(10_000)
  })

  it('leaves a million-value enum out alone, without reading all of it, and says why', () => {
    const hostile = evil(hugeEnum(1_000_000))
    const { value, ms } = timed(() => project([hostile, readFile]))
    expect(ms).toBeLessThan(100)
    expect(value.tools).toEqual(alone.tools)
    expect(value.report.tools[0]).toMatchObject({
      name: 'evil',
      status: 'omitted',
      warnings: ['left out: its schema takes more than 131072 bytes'],
    })
    expect(value.report.names).toEqual(alone.report.names)
  })

  it('leaves out a schema nested past the stack, alone', () => {
    const projection = project([evil(deepNesting(30_000)), readFile])
    expect(projection.tools).toEqual(alone.tools)
    expect(projection.report.tools[0]?.warnings).toEqual([
      'left out: projection failed: Maximum call stack size exceeded',
    ])
  })

  it('over the request budget, leaves the largest tool out and sends the rest unchanged', () => {
    const big = evil(hugeEnum(2_000))
    const full = project([readFile, big])
    const budget = { maxTotalBytes: JSON.stringify(full.tools).length - 1_000 }
    const projection = project([readFile, big], budget)
    expect(projection.tools).toEqual(alone.tools)
    expect(projection.report.tools[1]?.status).toBe('omitted')
    expect(projection.report.tools[1]?.warnings.at(-1)).toBe(
      `left out: the tools together would pass ${budget.maxTotalBytes} bytes; this one is among the largest`,
    )
  })
})

describe('Gemini parameters under a $defs fan-out', () => {
  it('falls back to parametersJsonSchema, $defs kept, instead of inlining 2^40 nodes', () => {
    const projection = toGeminiTools([evil(refFanOut(40))])
    expect(projection.report.tools[0]?.status).toBe('degraded')
    expect(projection.report.tools[0]?.warnings[0]).toMatch(
      /^\(root\): inlining its \$defs would build \d{13} schema nodes, over 20000 \(loose\)$/,
    )
    expect(projection.tools[0]?.parametersJsonSchema?.$defs).toBeDefined()
  })

  it('still inlines a small fan-out', () => {
    const projection = toGeminiTools([evil(refFanOut(4))])
    expect(projection.report.tools[0]?.status).not.toBe('degraded')
    expect(projection.tools[0]?.parameters).toBeDefined()
  })
})

describe('the native path: runtime.prompt(), then every projection (issue 14)', () => {
  /** A runtime showing read_file and, when given, one hostile tool registered as an MCP server's would be. */
  function promptWith(hostile?: ToolSchema['parameters'], config: { maxPromptBytes?: number } = {}) {
    const runtime = createToolRuntime(config)
    const define = (name: string, parameters: ToolSchema['parameters'], description: string) =>
      runtime.register(defineTool({ name, description, parameters: jsonSchema(parameters), execute: () => 'ok' }))
    define(readFile.name, readFile.parameters, readFile.description)
    if (hostile !== undefined) define('evil', hostile, 'Looks harmless.')
    return runtime.prompt()
  }
  const alone = promptWith()

  const attacks: Record<string, ToolSchema['parameters']> = {
    'a 26-level anyOf/$ref fan-out (about 2 KB)': refFanOut(26),
    'a 40-level $defs fan-out': refFanOut(40),
  }

  it.each(Object.entries(attacks))('keeps %s as sent, and projects it within a second everywhere', (_name, hostile) => {
    const prompt = promptWith(hostile)
    expect(prompt.omitted).toBeUndefined()
    expect(prompt.tools.map((tool) => tool.name)).toEqual(['evil', readFile.name])
    expect(prompt.tools[1]).toEqual(alone.tools[0])
    for (const [name, project] of Object.entries(projectors)) {
      const projected = timed(() => project(prompt.tools))
      expect([name, projected.ms < 1_000]).toEqual([name, true])
      expect(projected.value.tools[1] ?? projected.value.tools[0]).toEqual(project(alone.tools).tools[0])
    }
  })

  it('leaves a million-value enum out of the prompt alone, says why, and the rest is byte-identical', async () => {
    const hostile = hugeEnum(1_000_000)
    let prompt = alone
    const lag = await worstEventLoopLag(() => {
      prompt = promptWith(hostile)
    })
    expect(lag).toBeLessThan(100)
    expect(JSON.stringify(prompt.tools)).toBe(JSON.stringify(alone.tools))
    expect(prompt.omitted).toEqual([{ name: 'evil', reason: 'its schema takes more than 131072 bytes' }])
  })

  it('refuses a maxPromptBytes that is not a positive integer, naming the field', () => {
    for (const maxPromptBytes of [0, -1, 1.5, Number.NaN, '1MB']) {
      expect(() => createToolRuntime({ maxPromptBytes } as never)).toThrow(
        'createToolRuntime: config.maxPromptBytes must be a positive whole number of bytes',
      )
    }
  })

  it('holds the whole prompt to maxPromptBytes, leaving the largest tool out', () => {
    const big = hugeEnum(2_000)
    const full = promptWith(big)
    const maxPromptBytes = JSON.stringify(full.tools).length - 1_000
    const prompt = promptWith(big, { maxPromptBytes })
    expect(JSON.stringify(prompt.tools)).toBe(JSON.stringify(alone.tools))
    expect(prompt.omitted).toEqual([
      {
        name: 'evil',
        reason: `the tools together would take more than ${maxPromptBytes} bytes; this one is among the largest`,
      },
    ])
  })
})
