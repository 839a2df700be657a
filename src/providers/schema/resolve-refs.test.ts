import { describe, expect, it } from 'vitest'
import { ProjectionContext } from './projection-context.js'
import { inlineRefs, resolveRefs } from './resolve-refs.js'

describe('resolveRefs', () => {
  it('names draft-07 definitions and other local pointers, keeps only the reachable ones', () => {
    const context = new ProjectionContext()
    const resolved = resolveRefs(
      {
        type: 'object',
        properties: { a: { $ref: '#/definitions/place' }, b: { $ref: '#/properties/a' } },
        definitions: { place: { type: 'string' }, unused: { type: 'number' } },
      },
      context,
    )
    expect(resolved.root).toEqual({
      type: 'object',
      properties: { a: { $ref: '#/$defs/place' }, b: { $ref: '#/$defs/properties_a' } },
    })
    expect(resolved.defs).toEqual({ place: { type: 'string' }, properties_a: { $ref: '#/$defs/place' } })
    expect(resolved.cyclic.size).toBe(0)
    expect(inlineRefs(resolved)).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
    })
  })

  it('finds cycles, refuses to inline them, and refuses refs that do not resolve', () => {
    const context = new ProjectionContext()
    const resolved = resolveRefs(
      {
        type: 'object',
        properties: { tree: { $ref: '#/$defs/node' }, other: { $ref: 'https://example.com/schema' } },
        $defs: {
          node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } },
        },
      },
      context,
    )
    expect([...resolved.cyclic]).toEqual(['node'])
    expect(inlineRefs(resolved)).toBeUndefined()
    expect(context.unfaithful).toEqual([
      '/properties/other: $ref "https://example.com/schema" does not resolve to a local schema',
    ])
  })

  it('lets siblings of $ref win when inlining', () => {
    const resolved = resolveRefs(
      {
        type: 'object',
        properties: { a: { $ref: '#/$defs/x', description: 'mine' } },
        $defs: { x: { type: 'string', description: 'theirs' } },
      },
      new ProjectionContext(),
    )
    expect(inlineRefs(resolved)?.properties?.a).toEqual({ type: 'string', description: 'mine' })
  })
})
