import { describe, expect, it } from 'vitest'
import { compileSchema } from '../json-schema/compile.js'
import type { JsonSchemaObject } from '../json-schema/node.js'
import { lenientSchema } from './lenient-schema.js'

describe('lenientSchema', () => {
  it('keeps a schema the validator supports as it is', () => {
    const schema = { type: 'object' as const, properties: { path: { type: 'string' as const } }, required: ['path'] }
    expect(lenientSchema(schema)).toEqual({ schema, dropped: [] })
  })

  it('drops the keywords strict compilation refuses, wherever they sit', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: {
        'a/b': { type: 'object', patternProperties: { '^x': { type: 'string' } } },
        name: { type: 'string', minLength: 1 },
      },
      if: { required: ['name'] },
    }
    expect(() => compileSchema(schema)).toThrow()
    const { schema: kept, dropped } = lenientSchema(schema)
    expect(() => compileSchema(kept)).not.toThrow()
    expect(kept.properties?.name).toEqual({ type: 'string', minLength: 1 })
    expect(dropped.length).toBeGreaterThan(0)
    expect(compileSchema(kept).validate({ name: '' }).valid).toBe(false)
  })
})
