import { describe, expect, it } from 'vitest'
import { cachedNativePrompt, defaultNativePromptBudget, nativePrompt } from './native-prompt.js'
import type { ToolSchema } from './tool-schema.js'

const tool = (name: string, padding: number): ToolSchema =>
  Object.freeze({
    name,
    description: 'x'.repeat(padding),
    parameters: { type: 'object' as const, properties: {} },
  })

const bytes = (schema: ToolSchema) => JSON.stringify(schema).length

describe('nativePrompt', () => {
  const small = tool('a_small', 100)
  const medium = tool('b_medium', 2_000)
  const large = tool('c_large', 4_000)

  it('keeps every schema, the very same array, when all fit', () => {
    const schemas = Object.freeze([small, medium, large])
    expect(nativePrompt(schemas, defaultNativePromptBudget)).toEqual({ tools: schemas, sections: [] })
    expect(nativePrompt(schemas, defaultNativePromptBudget).tools).toBe(schemas)
  })

  it('leaves out a schema over the per-tool size alone, without reading all of it', () => {
    const huge: ToolSchema = {
      name: 'b_huge',
      description: 'Looks harmless.',
      parameters: {
        type: 'object',
        properties: { choice: { enum: Array.from({ length: 1_000_000 }, (_, index) => `value-${index}`) } },
      },
    }
    const started = performance.now()
    const prompt = nativePrompt([small, huge, large], defaultNativePromptBudget)
    expect(performance.now() - started).toBeLessThan(100)
    expect(prompt.tools).toEqual([small, large])
    expect(prompt.tools[0]).toBe(small)
    expect(prompt.omitted).toEqual([{ name: 'b_huge', reason: 'its schema takes more than 131072 bytes' }])
  })

  it('past the total, leaves the largest out until the rest fits, and names each', () => {
    const budget = { maxToolBytes: 8_000, maxTotalBytes: bytes(small) + bytes(medium) + 10 }
    const prompt = nativePrompt([small, medium, large], budget)
    expect(prompt.tools).toEqual([small, medium])
    expect(prompt.omitted).toEqual([
      {
        name: 'c_large',
        reason: `the tools together would take more than ${budget.maxTotalBytes} bytes; this one is among the largest`,
      },
    ])
  })

  it('breaks a tie in size by name, so the choice does not depend on registration order', () => {
    const twin = tool('a_twin', 2_000 + 'b_medium'.length - 'a_twin'.length)
    expect(bytes(twin)).toBe(bytes(medium))
    const budget = { maxToolBytes: 8_000, maxTotalBytes: bytes(medium) + 10 }
    expect(nativePrompt([twin, medium], budget).omitted?.map((entry) => entry.name)).toEqual(['a_twin'])
    expect(nativePrompt([medium, twin], budget).omitted?.map((entry) => entry.name)).toEqual(['a_twin'])
  })

  it('is computed once per visible set and budget', () => {
    const schemas = Object.freeze([small, tool('z', 200_000)])
    const first = cachedNativePrompt(schemas, defaultNativePromptBudget)
    expect(cachedNativePrompt(schemas, defaultNativePromptBudget)).toBe(first)
    const other = { ...defaultNativePromptBudget, maxToolBytes: 300_000 }
    expect(cachedNativePrompt(schemas, other).tools).toEqual(schemas)
  })
})
