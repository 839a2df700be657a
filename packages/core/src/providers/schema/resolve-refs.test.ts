import { describe, expect, it } from 'vitest'
import type { JsonSchemaNode } from '../../json-schema/node.js'
import { ProjectionContext } from './projection-context.js'
import { inlinedSize, inlineRefs, resolveRefs } from './resolve-refs.js'

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

  it('counts the nodes inlining would build, each definition once, without building them', () => {
    const defs: Record<string, JsonSchemaNode> = { d3: { type: 'string' } }
    for (let level = 0; level < 3; level++) {
      defs[`d${level}`] = { anyOf: [{ $ref: `#/$defs/d${level + 1}` }, { $ref: `#/$defs/d${level + 1}` }] }
    }
    const resolved = resolveRefs(
      { type: 'object', properties: { v: { $ref: '#/$defs/d0' } }, $defs: defs },
      new ProjectionContext(),
    )
    // d3 is 1 node, each level 1 + 2 × the next (15 for d0), and the root 1 more; the properties map is no node.
    expect(inlinedSize(resolved)).toBe(16)
    expect(JSON.stringify(inlineRefs(resolved)).match(/"type":"string"/g)).toHaveLength(8)
    expect(inlinedSize({ ...resolved, cyclic: new Set(['d0']) })).toBe(Number.POSITIVE_INFINITY)
  })
})
