import { describe, expect, it } from 'vitest'
import { defineTool } from '../definition/define-tool.js'
import { createToolRuntime } from '../pipeline/create-tool-runtime.js'
import { freezeParsed } from '../pipeline/frozen-json.js'
import { defaultFillerFor } from './default-filler.js'
import type { JsonObject } from './json-value.js'

/** Three levels of objects, each with a default of its own, and an array of objects with defaults. */
const nested = defineTool({
  name: 'configure',
  description: 'Configure a job.',
  parameters: {
    retries: { type: 'integer', default: 3 },
    outer: {
      type: 'object',
      default: {},
      properties: {
        level: { type: 'string', default: 'one' },
        middle: {
          type: 'object',
          properties: {
            level: { type: 'string', default: 'two' },
            inner: {
              type: 'object',
              properties: { level: { type: 'string', default: 'three' }, tags: { type: 'array', default: ['a'] } },
            },
          },
        },
      },
    },
    steps: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string', required: true }, wait: { type: 'number', default: 0 } },
      },
    },
  },
  execute: (args) => args,
})

describe('DSL defaults', () => {
  it('fills absent keys at every level, inside a defaulted object and in array items', () => {
    const fill = defaultFillerFor(nested.parameters)!
    const args = freezeParsed({
      outer: { middle: { inner: {} } },
      steps: [{ name: 'a' }, { name: 'b', wait: 5 }],
    } as JsonObject)
    expect(fill(args)).toEqual({
      retries: 3,
      outer: { level: 'one', middle: { level: 'two', inner: { level: 'three', tags: ['a'] } } },
      steps: [
        { name: 'a', wait: 0 },
        { name: 'b', wait: 5 },
      ],
    })
    expect(fill(freezeParsed({} as JsonObject))).toEqual({ retries: 3, outer: { level: 'one' } })
    expect(args).toEqual({ outer: { middle: { inner: {} } }, steps: [{ name: 'a' }, { name: 'b', wait: 5 }] })
  })

  it('keeps what was sent, returns its input when nothing was absent, and needs no filler without defaults', () => {
    const fill = defaultFillerFor(nested.parameters)!
    const complete = freezeParsed({ retries: 0, outer: { level: 'x' } } as JsonObject)
    expect(fill(complete)).toBe(complete)
    expect(defaultFillerFor({ type: 'object', properties: { a: { type: 'string' } } })).toBeUndefined()
  })

  it('a hostile "__proto__" member stays an own key and the prototype is untouched', () => {
    const fill = defaultFillerFor({ type: 'object', properties: { a: { type: 'number', default: 1 } } })!
    const args = freezeParsed(JSON.parse('{"__proto__": {"polluted": true}}') as JsonObject)
    const filled = fill(args) as Record<string, unknown>
    expect(Object.getPrototypeOf(filled)).toBe(Object.prototype)
    expect(Object.keys(filled)).toEqual(['__proto__', 'a'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('reach the approver and execute before they run; one call cannot change the default of the next', async () => {
    const approved: unknown[] = []
    const executed: unknown[] = []
    const runtime = createToolRuntime({
      approve: (request) => {
        approved.push(request.call.arguments)
        return true
      },
    })
    runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'record' }))
    runtime.register(
      defineTool({
        name: 'tagger',
        description: 'Tag things.',
        parameters: {
          options: {
            type: 'object',
            default: { tags: ['a'] },
            properties: { tags: { type: 'array', items: { type: 'string' } } },
          },
        },
        execute: (args) => {
          executed.push(args)
          try {
            ;(args.options.tags as string[]).push('mutated')
          } catch {}
          return null
        },
      }),
    )
    for (const id of ['1', '2']) {
      const result = await runtime.execute({ id, name: 'tagger', arguments: '{}' })
      expect(result.ok).toBe(true)
    }
    expect(approved).toEqual([{ options: { tags: ['a'] } }, { options: { tags: ['a'] } }])
    expect(executed).toEqual(approved)
    expect(Object.isFrozen((executed[0] as { options: { tags: string[] } }).options.tags)).toBe(true)
  })

  it('an executionMode classifier sees the defaults too', async () => {
    const classified: unknown[] = []
    const runtime = createToolRuntime()
    runtime.register(
      defineTool({
        name: 'scheduled',
        description: 'Scheduled.',
        parameters: { mode: { type: 'string', enum: ['read', 'write'], default: 'read' } },
        executionMode: (args) => {
          classified.push(args.mode)
          return args.mode === 'read' ? 'parallel' : 'exclusive'
        },
        execute: () => null,
      }),
    )
    await runtime.executeAll([{ id: '1', name: 'scheduled', arguments: '{}' }])
    expect(classified).toEqual(['read'])
  })
})
