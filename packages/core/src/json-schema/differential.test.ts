import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileSchema } from './compile.js'
import type { JsonValue } from './json-value.js'
import type { JsonSchemaNode } from './node.js'

/**
 * Differential test against Ajv 8 (2020-12 dialect) on generated schemas inside our subset and generated values.
 * Excluded on purpose, because Ajv deviates from the spec there (the official suite agrees with us):
 * - `multipleOf` with decimal divisors: Ajv divides binary floats, so 0.0075 is not a multiple of 0.0001 for it;
 *   we generate only divisors that are exact in binary (0.25, 0.5, 1, 2, 3).
 * - `format`: an annotation for both by default, so nothing to compare.
 * - draft-07 tuple `items`: Ajv's 2020 class refuses the array form.
 * - `required: ["__proto__"]`: Ajv tests `data.__proto__ !== undefined`, which finds Object.prototype, so it
 *   accepts `{}`; we require an own key. Generated objects still carry `__proto__` as a data key.
 * - `multipleOf` on numbers from 1e21 up: Ajv compares the quotient with `parseInt(quotient)`, and
 *   `parseInt(1e21)` is 1, so it rejects 1e21 as a multiple of 1. Such values are skipped when the schema has
 *   `multipleOf`.
 */
const KEYS = ['a', 'b', 'c', '__proto__'] as const
const STRINGS = ['', 'a', 'ab', 'abc', 'b1', '🐲', '🐲🐲🐲', 'xyz'] as const
const NUMBERS = [0, 1, -1, 1.5, 2, 2.5, 3, 10, -0.5, 0.25, 1e21] as const
const PATTERNS = ['^a', 'b$', '^[a-c]*$', '\\d', '^\\p{Letter}+$', '🐲'] as const
const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'] as const

const valueArbitrary: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...STRINGS),
    fc.constantFrom(...NUMBERS),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.constantFrom(...KEYS), tie('value')), { maxLength: 4 })
      .map((entries) => JSON.parse(JSON.stringify(Object.fromEntries(entries))) as JsonValue),
  ),
})).value

// Object.fromEntries with "__proto__" defines an own key, which JSON round-trips as data (as JSON.parse would).

const count = fc.integer({ min: 0, max: 3 })

const schemaArbitrary: fc.Arbitrary<JsonSchemaNode> = fc.letrec<{ schema: JsonSchemaNode }>((tie) => {
  const child = tie('schema')
  const keyword = fc.oneof(
    fc.record({
      type: fc.oneof(
        fc.constantFrom(...TYPES),
        fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }),
      ),
    }),
    fc.record({
      enum: fc.uniqueArray(valueArbitrary, { minLength: 1, maxLength: 3, selector: (value) => JSON.stringify(value) }),
    }),
    fc.record({ const: valueArbitrary }),
    fc.record({ minLength: count }),
    fc.record({ maxLength: count }),
    fc.record({ pattern: fc.constantFrom(...PATTERNS) }),
    fc.record({ minimum: fc.constantFrom(...NUMBERS) }),
    fc.record({ maximum: fc.constantFrom(...NUMBERS) }),
    fc.record({ exclusiveMinimum: fc.constantFrom(...NUMBERS) }),
    fc.record({ exclusiveMaximum: fc.constantFrom(...NUMBERS) }),
    fc.record({ multipleOf: fc.constantFrom(0.25, 0.5, 1, 2, 3) }),
    fc.record(
      {
        properties: fc.dictionary(fc.constantFrom('a', 'b', 'c'), child, { maxKeys: 3 }),
        required: fc.uniqueArray(fc.constantFrom('a', 'b', 'c'), { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.boolean(), child),
      },
      { requiredKeys: [] },
    ),
    fc.record({ propertyNames: child }),
    fc.record({ minProperties: count }),
    fc.record({ maxProperties: count }),
    fc.record({ items: child }),
    fc.record({ prefixItems: fc.array(child, { minLength: 1, maxLength: 2 }) }, { requiredKeys: [] }),
    fc.record({ prefixItems: fc.array(child, { minLength: 1, maxLength: 2 }), items: child }),
    fc.record({ minItems: count }),
    fc.record({ maxItems: count }),
    fc.record({ uniqueItems: fc.boolean() }),
    fc.record({ anyOf: fc.array(child, { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(child, { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(child, { minLength: 1, maxLength: 3 }) }),
    fc.record({ not: child }),
  )
  return {
    schema: fc.oneof(
      { depthSize: 'small', maxDepth: 3 },
      fc.boolean(),
      fc.array(keyword, { minLength: 1, maxLength: 3 }).map((parts) => Object.assign({}, ...parts) as JsonSchemaNode),
    ),
  }
}).schema

/** Values shaped like the schema: its enum and const values, and objects built from its property names. */
function valuesFor(schema: JsonSchemaNode): fc.Arbitrary<JsonValue> {
  if (typeof schema === 'boolean') return valueArbitrary
  const candidates: fc.Arbitrary<JsonValue>[] = [valueArbitrary]
  if (schema.enum !== undefined) candidates.push(fc.constantFrom(...(schema.enum as JsonValue[])))
  if (schema.const !== undefined) candidates.push(fc.constant(schema.const))
  if (schema.properties !== undefined) {
    const shape = Object.fromEntries(Object.entries(schema.properties).map(([key, child]) => [key, valuesFor(child)]))
    candidates.push(fc.record(shape, { requiredKeys: [] }) as fc.Arbitrary<JsonValue>)
  }
  if (schema.items !== undefined && !Array.isArray(schema.items)) {
    candidates.push(fc.array(valuesFor(schema.items as JsonSchemaNode), { maxLength: 3 }))
  }
  return fc.oneof(...candidates)
}

describe('differential against Ajv 8', () => {
  it('agrees on validity for generated schemas and values', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false })
    fc.assert(
      fc.property(
        schemaArbitrary.chain((schema) =>
          fc.tuple(fc.constant(schema), fc.array(valuesFor(schema), { minLength: 1, maxLength: 8 })),
        ),
        ([schema, values]) => {
          const ours = compileSchema(schema)
          const closures = compileSchema(schema, { codegen: false })
          const theirs = ajv.compile(typeof schema === 'boolean' ? schema : structuredClone(schema))
          const hasMultipleOf = JSON.stringify(schema).includes('"multipleOf"')
          for (const value of values) {
            if (hasMultipleOf && JSON.stringify(value).includes('e+')) continue
            const expected = theirs(value)
            const result = ours.validate(value)
            const closureResult = closures.validate(value)
            expect([value, result.valid, closureResult.valid]).toEqual([value, expected, expected])
            // The generated code found a failing node the closure tree could describe.
            if (!result.valid) expect(result.issues.map((issue) => issue.keyword)).not.toContain('schema')
            // A value with a single problem gets the same words from both engines, however the generated code
            // words it (directly from the failing keyword, or through the closure of the failing node).
            if (!result.valid && !closureResult.valid && closureResult.issues.length === 1) {
              expect(result.issues).toEqual(closureResult.issues)
            }
          }
        },
      ),
      { numRuns: 800, seed: 20_260_130 },
    )
  })
})
