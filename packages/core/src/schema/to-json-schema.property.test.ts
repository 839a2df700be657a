import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { compileSchema } from '../json-schema/compile.js'
import { parametersToJsonSchema, toJsonSchema } from './to-json-schema.js'
import type { ParameterSchemaSpec, ValueSchemaSpec } from './value-spec.js'

const annotations = fc.record({ description: fc.string(), title: fc.string() }, { requiredKeys: [] })
const bound = fc.nat({ max: 20 })

const scalar: fc.Arbitrary<ValueSchemaSpec> = fc.oneof(
  fc
    .record(
      { minLength: bound, maxLength: bound, pattern: fc.constantFrom('^a', '[0-9]$', 'x'), nullable: fc.boolean() },
      { requiredKeys: [] },
    )
    .map((spec) => ({
      type: 'string' as const,
      ...spec,
      maxLength: Math.max(spec.maxLength ?? 0, spec.minLength ?? 0),
    })),
  fc
    .record(
      { minimum: fc.integer({ min: -50, max: 0 }), maximum: fc.integer({ min: 0, max: 50 }) },
      { requiredKeys: [] },
    )
    .map((spec) => ({ type: 'integer' as const, ...spec })),
  fc.constantFrom<ValueSchemaSpec>(
    { type: 'number', multipleOf: 0.5 },
    { type: 'boolean', nullable: true },
    { type: 'null' },
    { type: 'json' },
    { type: 'string', enum: ['a', 'b'], default: 'a' },
    { type: 'integer', const: 3 },
  ),
)

const { spec } = fc.letrec<{ spec: ValueSchemaSpec; properties: ParameterSchemaSpec }>((tie) => ({
  spec: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.record({ type: fc.constant('array' as const), items: tie('spec'), uniqueItems: fc.boolean() }),
    fc.record({ type: fc.constant('object' as const), properties: tie('properties'), nullable: fc.boolean() }),
    fc.record({ type: fc.constant('object' as const), additionalProperties: tie('spec') }),
    fc.record({ oneOf: fc.array(tie('spec'), { minLength: 1, maxLength: 3 }) }),
  ),
  properties: fc.dictionary(
    fc.string({ minLength: 1, maxLength: 6 }),
    fc.tuple(tie('spec'), fc.boolean()).map(([value, required]) => (required ? { ...value, required } : value)),
    { maxKeys: 4 },
  ),
}))

/** Rebuilds every object with its keys reversed, except property records, whose order is the declaration order. */
function reverseKeys(value: unknown, isPropertyRecord = false): unknown {
  if (Array.isArray(value)) return value.map((item) => reverseKeys(item))
  if (typeof value !== 'object' || value === null) return value
  const entries = Object.entries(value).map(([key, item]) => [key, reverseKeys(item, key === 'properties')] as const)
  return Object.fromEntries(isPropertyRecord ? entries : entries.reverse())
}

describe('toJsonSchema on generated specs', () => {
  test('every valid spec converts to a schema our validator compiles strictly', () => {
    fc.assert(
      fc.property(spec, annotations, (generated, extra) => {
        const node = toJsonSchema({ ...generated, ...extra } as ValueSchemaSpec)
        expect(() => compileSchema(node)).not.toThrow()
      }),
      { numRuns: 300 },
    )
  })

  test('conversion is deterministic and independent of the key order authors use', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), spec, { maxKeys: 4 }), (properties) => {
        const text = JSON.stringify(parametersToJsonSchema(properties))
        expect(JSON.stringify(parametersToJsonSchema(properties))).toBe(text)
        expect(JSON.stringify(parametersToJsonSchema(reverseKeys(properties, true) as ParameterSchemaSpec))).toBe(text)
      }),
      { numRuns: 300 },
    )
  })
})
