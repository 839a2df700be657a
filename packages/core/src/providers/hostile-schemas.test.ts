import {
  deepNesting,
  hugeEnum,
  readFileTool,
  refFanOut,
} from '@qilin-tools/code-mode/internal/ts-sdk/__fixtures__/hostile-tools.js'
import { describe, expect, it } from 'vitest'
import type { ToolSchema } from '../registry/tool-schema.js'
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
