import { describe, expect, test } from 'vitest'
import { compileSchema } from '../json-schema/compile.js'
import { jsonSchema } from './json-schema-spec.js'
import { SchemaSpecError } from './schema-spec-error.js'
import { parametersToJsonSchema, toJsonSchema } from './to-json-schema.js'
import type { ParameterSchemaSpec, ValueSpec } from './value-spec.js'

const richParameters = {
  query: { type: 'string', required: true, minLength: 1, maxLength: 200, description: 'What to search for' },
  mode: { type: 'string', enum: ['exact', 'fuzzy'], default: 'fuzzy', title: 'Mode' },
  limit: { type: 'integer', minimum: 1, maximum: 100, multipleOf: 1, default: 10 },
  score: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, nullable: true },
  since: { type: 'string', format: 'date-time', pattern: '^\\d{4}-' },
  strict: { type: 'boolean', const: true },
  nothing: { type: 'null' },
  tags: { type: 'array', items: { type: 'string', maxLength: 20 }, minItems: 1, maxItems: 5, uniqueItems: true },
  filters: {
    type: 'object',
    required: true,
    properties: {
      owner: { type: 'string', required: true },
      labels: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
    nullable: true,
    description: 'Narrow the results',
  },
  target: {
    oneOf: [
      { type: 'object', properties: { file: { type: 'string', required: true } } },
      { type: 'object', properties: { url: { type: 'string', format: 'uri', required: true } } },
    ],
    description: 'Where to look',
  },
  extra: { type: 'json', description: 'Anything' },
  raw: jsonSchema({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] }),
} as const satisfies ParameterSchemaSpec

/** Reverses the key order of every spec object, keeping the declaration order of property records. */
function reverseSpecKeys(spec: unknown, isPropertyRecord = false): unknown {
  if (Array.isArray(spec)) return spec.map((item) => reverseSpecKeys(item))
  if (typeof spec !== 'object' || spec === null || Object.getOwnPropertySymbols(spec).length > 0) return spec
  const entries = Object.entries(spec).map(([key, value]) => [key, reverseSpecKeys(value, key === 'properties')])
  if (isPropertyRecord) {
    return Object.fromEntries(Object.entries(spec).map(([key, value]) => [key, reverseSpecKeys(value)]))
  }
  return Object.fromEntries(entries.reverse())
}

describe('parametersToJsonSchema', () => {
  test('converts a rich example to the canonical schema', () => {
    // Serialized, so the snapshot also pins key order (the snapshot printer sorts object keys).
    expect(JSON.stringify(parametersToJsonSchema(richParameters), null, 2)).toMatchSnapshot()
  })

  test('is deterministic across runs and across the order authors write keys in', () => {
    const first = JSON.stringify(parametersToJsonSchema(richParameters))
    expect(JSON.stringify(parametersToJsonSchema(richParameters))).toBe(first)
    const reversed = reverseSpecKeys(richParameters, true) as ParameterSchemaSpec
    expect(Object.keys(reversed.query ?? {})).not.toEqual(Object.keys(richParameters.query))
    expect(JSON.stringify(parametersToJsonSchema(reversed))).toBe(first)
  })

  test('lists required properties in declaration order and omits an empty list', () => {
    const node = parametersToJsonSchema({
      b: { type: 'string', required: true },
      a: { type: 'string' },
      c: { type: 'string', required: true },
    })
    expect(node.required).toEqual(['b', 'c'])
    expect(parametersToJsonSchema({})).toEqual({ type: 'object', properties: {}, additionalProperties: false })
  })

  test('the canonical schema is accepted by our validator and enforces the spec', () => {
    const validator = compileSchema(parametersToJsonSchema(richParameters))
    const valid = {
      query: 'tools',
      filters: { owner: 'me', labels: { bug: ['p1'] } },
      target: { file: 'a.ts' },
      raw: ['x', 1],
      score: null,
    }
    expect(validator.validate(valid)).toEqual({ valid: true })
    expect(validator.validate({ ...valid, filters: null })).toEqual({ valid: true })
    const invalid = [
      { ...valid, query: '' },
      { ...valid, mode: 'regex' },
      { ...valid, strict: false },
      { ...valid, unknown: 1 },
      { ...valid, target: { file: 'a', url: 'b' } },
      { ...valid, tags: ['a', 'a'] },
      { query: 'tools', target: { file: 'a.ts' } },
    ]
    for (const value of invalid) expect(validator.validate(value).valid).toBe(false)
  })

  test('keeps a __proto__ property an ordinary property', () => {
    const spec = JSON.parse('{"__proto__": {"type": "string", "required": true}}') as ParameterSchemaSpec
    const node = parametersToJsonSchema(spec)
    expect(Object.keys(node.properties ?? {})).toEqual(['__proto__'])
    expect(node.required).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(node.properties)).toBe(Object.prototype)
  })
})

describe('toJsonSchema', () => {
  const cases: readonly [string, ValueSpec, unknown][] = [
    ['string', { type: 'string', description: 'd', minLength: 1 }, { type: 'string', description: 'd', minLength: 1 }],
    ['integer', { type: 'integer', maximum: 3, minimum: 1 }, { type: 'integer', minimum: 1, maximum: 3 }],
    ['boolean', { type: 'boolean' }, { type: 'boolean' }],
    ['null', { type: 'null' }, { type: 'null' }],
    ['json', { type: 'json', description: 'any' }, { description: 'any' }],
    ['array without items', { type: 'array' }, { type: 'array' }],
    ['open object', { type: 'object' }, { type: 'object' }],
    [
      'record',
      { type: 'object', additionalProperties: { type: 'number' } },
      { type: 'object', additionalProperties: { type: 'number' } },
    ],
    [
      'nullable scalar with const',
      { type: 'string', const: 'x', nullable: true },
      { type: ['string', 'null'], enum: ['x', null] },
    ],
    [
      'nullable enum',
      { type: 'integer', enum: [1, 2], nullable: true },
      { type: ['integer', 'null'], enum: [1, 2, null] },
    ],
    [
      'nullable array hoists annotations',
      { type: 'array', items: { type: 'string' }, nullable: true, description: 'd', default: null },
      { description: 'd', anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }], default: null },
    ],
    [
      'nullable oneOf',
      { oneOf: [{ type: 'string' }, { type: 'number' }], nullable: true },
      { anyOf: [{ oneOf: [{ type: 'string' }, { type: 'number' }] }, { type: 'null' }] },
    ],
    ['raw boolean schema', jsonSchema(true), true],
  ]
  test.each(cases)('%s', (_label, spec, expected) => {
    expect(toJsonSchema(spec)).toEqual(expected)
  })

  test('emits keys in the documented order whatever the author order', () => {
    const node = toJsonSchema({
      default: 'b',
      pattern: '^[a-z]$',
      enum: ['a', 'b'],
      maxLength: 1,
      description: 'letter',
      title: 'Letter',
      type: 'string',
    })
    expect(Object.keys(node)).toEqual(['type', 'title', 'description', 'enum', 'maxLength', 'pattern', 'default'])
  })

  test('detaches raw nodes from the author object', () => {
    const inner: { type: 'string' | 'number' } = { type: 'string' }
    const node = toJsonSchema(jsonSchema({ type: 'object', properties: { a: inner } }))
    inner.type = 'number'
    expect(node).toEqual({ type: 'object', properties: { a: { type: 'string' } } })
  })

  test('a raw node with references may stand only at the root', () => {
    const referring = jsonSchema({ $defs: { id: { type: 'string' } }, $ref: '#/$defs/id' })
    expect(toJsonSchema(referring)).toEqual({ $defs: { id: { type: 'string' } }, $ref: '#/$defs/id' })
    expect(() => toJsonSchema({ type: 'array', items: referring })).toThrow(/items: a schema using \$ref/)
  })

  test('errors are SchemaSpecErrors carrying the path', () => {
    const error = (() => {
      try {
        toJsonSchema({ type: 'array', items: { type: 'object', properties: { 'a b': { type: 'text' } } } } as never)
      } catch (caught) {
        return caught
      }
    })()
    expect(error).toBeInstanceOf(SchemaSpecError)
    expect(error).toMatchObject({ path: 'items.properties["a b"]' })
  })
})

describe('open objects', () => {
  const closed = { type: 'object', properties: { a: { type: 'string' } } } as const
  const opened = { ...closed, open: true } as const

  test('a DSL object is closed by default; open: true accepts keys its properties do not name', () => {
    expect(toJsonSchema(closed)).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: false,
    })
    expect(toJsonSchema(opened)).toEqual({ type: 'object', properties: { a: { type: 'string' } } })
    expect(compileSchema(toJsonSchema(closed)).validate({ a: 'x', extra: 1 }).valid).toBe(false)
    expect(compileSchema(toJsonSchema(opened)).validate({ a: 'x', extra: 1 }).valid).toBe(true)
    expect(compileSchema(toJsonSchema(opened)).validate({ a: 1 }).valid).toBe(false)
  })

  test('open must be a flag, and a record cannot be opened', () => {
    expect(() => toJsonSchema({ ...closed, open: 'yes' } as never)).toThrow('open: must be true or false')
    expect(() =>
      toJsonSchema({ type: 'object', additionalProperties: { type: 'string' }, open: true } as never),
    ).toThrow('open and additionalProperties together')
    expect(() => toJsonSchema({ type: 'string', open: true } as never)).toThrow('open does not apply to kind string')
  })
})
