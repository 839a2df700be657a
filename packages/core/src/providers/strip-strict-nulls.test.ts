import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileSchema } from '../json-schema/compile.js'
import type { JsonObject, JsonValue } from '../json-schema/json-value.js'
import type { JsonSchemaObject } from '../json-schema/node.js'
import { projectOpenAISchema } from './openai/openai-schema.js'
import { stripStrictNulls } from './strip-strict-nulls.js'

// Our validator judges our schemas; Ajv stands in for OpenAI on the projected strict schema (which uses
// keywords, like type arrays with null, in the form the provider reads them).
const ajv = new Ajv2020({ strict: false, allErrors: false })
const providerAccepts = (schema: JsonSchemaObject, value: JsonValue) => ajv.validate(schema, value) === true
const accepts = (schema: JsonSchemaObject, value: JsonValue) => compileSchema(schema).validate(value).valid

interface Property {
  readonly schema: JsonSchemaObject
  readonly required: boolean
}

/** Schemas of the shapes strict mode rewrites: optional and nullable properties, nested objects, arrays, tagged unions. */
const schemaArbitrary: fc.Arbitrary<JsonSchemaObject> = fc.letrec<{ node: JsonSchemaObject; object: JsonSchemaObject }>(
  (tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant<JsonSchemaObject>({ type: 'string' }),
      fc.constant<JsonSchemaObject>({ type: 'integer', minimum: 0 }),
      fc.constant<JsonSchemaObject>({ type: 'boolean' }),
      fc.constant<JsonSchemaObject>({ type: 'string', enum: ['a', 'b'] }),
      fc.constant<JsonSchemaObject>({ type: ['string', 'null'] }),
      tie('object'),
      tie('node').map((items): JsonSchemaObject => ({ type: 'array', items })),
      fc
        .tuple(tie('object'), tie('object'))
        .map(([left, right]): JsonSchemaObject => ({ oneOf: [tagged(left, 'left'), tagged(right, 'right')] })),
    ),
    object: fc
      .dictionary(
        fc.constantFrom('alpha', 'beta', 'gamma', 'delta'),
        fc.record({ schema: tie('node'), required: fc.boolean() }),
        { maxKeys: 4 },
      )
      .map((properties) => objectSchema(properties)),
  }),
).object

function objectSchema(properties: Record<string, Property>): JsonSchemaObject {
  const entries = Object.entries(properties)
  return {
    type: 'object',
    properties: Object.fromEntries(entries.map(([name, property]) => [name, property.schema])),
    required: entries.filter(([, property]) => property.required).map(([name]) => name),
    additionalProperties: false,
  }
}

function tagged(object: JsonSchemaObject, tag: string): JsonSchemaObject {
  return {
    ...object,
    properties: { kind: { const: tag }, ...object.properties },
    required: ['kind', ...(object.required ?? [])],
  }
}

/** Values our schema accepts, with optional properties present or absent at random. */
function valueArbitrary(schema: JsonSchemaObject): fc.Arbitrary<JsonValue> {
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum)
  if (Array.isArray(schema.oneOf))
    return fc.oneof(...schema.oneOf.map((branch) => valueArbitrary(branch as JsonSchemaObject)))
  if (Array.isArray(schema.type)) return fc.oneof(fc.string({ maxLength: 3 }), fc.constant(null))
  if (schema.type === 'string') return fc.string({ maxLength: 3 })
  if (schema.type === 'integer') return fc.nat(9)
  if (schema.type === 'boolean') return fc.boolean()
  if (schema.type === 'array') return fc.array(valueArbitrary(schema.items as JsonSchemaObject), { maxLength: 2 })
  const required = new Set(schema.required ?? [])
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const value = valueArbitrary(property as JsonSchemaObject)
    return [
      name,
      required.has(name)
        ? value.map((item) => [item])
        : fc.option(
            value.map((item) => [item]),
            { nil: undefined },
          ),
    ] as const
  })
  return fc.tuple(...fields.map(([, field]) => field)).map((values) => {
    const out: JsonObject = {}
    fields.forEach(([name], index) => {
      const present = values[index]
      if (present !== undefined) out[name] = (present as JsonValue[])[0] as JsonValue
    })
    return out
  })
}

/** What the model sends under strict mode: every property present, `null` for the absent ones. */
function asModelSends(value: JsonValue, schema: JsonSchemaObject): JsonValue {
  if (Array.isArray(schema.oneOf)) {
    const branch = schema.oneOf.find((candidate) => accepts(candidate as JsonSchemaObject, value))
    return branch === undefined ? value : asModelSends(value, branch as JsonSchemaObject)
  }
  if (Array.isArray(value)) return value.map((item) => asModelSends(item, schema.items as JsonSchemaObject))
  if (value === null || typeof value !== 'object') return value
  const out: JsonObject = {}
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    out[name] = name in value ? asModelSends(value[name] as JsonValue, property as JsonSchemaObject) : null
  }
  return out
}

/** What stripping can give back: an absent optional property whose own schema admits null stays `null`. */
function expectedAfterStrip(value: JsonValue, schema: JsonSchemaObject): JsonValue {
  if (Array.isArray(schema.oneOf)) {
    const branch = schema.oneOf.find((candidate) => accepts(candidate as JsonSchemaObject, value))
    return branch === undefined ? value : expectedAfterStrip(value, branch as JsonSchemaObject)
  }
  if (Array.isArray(value)) return value.map((item) => expectedAfterStrip(item, schema.items as JsonSchemaObject))
  if (value === null || typeof value !== 'object') return value
  const out: JsonObject = {}
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const nullable = Array.isArray((property as JsonSchemaObject).type)
    if (name in value) out[name] = expectedAfterStrip(value[name] as JsonValue, property as JsonSchemaObject)
    else if (nullable) out[name] = null
  }
  return out
}

const withValue = schemaArbitrary.chain((schema) => valueArbitrary(schema).map((value) => ({ schema, value })))

describe('stripStrictNulls', () => {
  it('a value our schema accepts, sent the strict way, passes the strict schema and comes back accepted', () => {
    fc.assert(
      fc.property(withValue, ({ schema, value }) => {
        const strict = projectOpenAISchema(schema, { strict: true, describeDropped: false })
        expect(strict.context.unfaithful).toEqual([])
        const sent = asModelSends(value, schema)
        expect(providerAccepts(strict.schema, sent)).toBe(true)
        const stripped = stripStrictNulls(sent, schema)
        expect(accepts(schema, stripped)).toBe(true)
        expect(stripped).toEqual(expectedAfterStrip(value, schema))
      }),
      { numRuns: 150 },
    )
  })

  it('whatever the strict schema lets the model send is accepted by our schema once nulls are stripped', () => {
    const anyNulls = withValue.chain(({ schema, value }) =>
      fc.boolean().map((nullEverything) => ({ schema, sent: nullEverything ? asModelSends(value, schema) : value })),
    )
    fc.assert(
      fc.property(anyNulls, ({ schema, sent }) => {
        const strict = projectOpenAISchema(schema, { strict: true, describeDropped: false })
        fc.pre(providerAccepts(strict.schema, sent))
        expect(accepts(schema, stripStrictNulls(sent, schema))).toBe(true)
      }),
      { numRuns: 150 },
    )
  })

  it('keeps a null where our schema admits it, and removes it where it stands for absent', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: { note: { type: ['string', 'null'] }, limit: { type: 'integer' }, name: { type: 'string' } },
      required: ['name'],
    }
    expect(stripStrictNulls({ note: null, limit: null, name: 'x' }, schema)).toEqual({ note: null, name: 'x' })
  })

  it('follows $ref and picks the union branch the value was written for', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: { target: { $ref: '#/$defs/target' } },
      $defs: {
        target: {
          oneOf: [
            {
              type: 'object',
              properties: { kind: { const: 'a' }, x: { type: 'string' } },
              required: ['kind'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: { kind: { const: 'b' }, y: { type: 'string' } },
              required: ['kind'],
              additionalProperties: false,
            },
          ],
        },
      },
    }
    expect(stripStrictNulls({ target: { kind: 'b', y: null } }, schema)).toEqual({ target: { kind: 'b' } })
  })
})
