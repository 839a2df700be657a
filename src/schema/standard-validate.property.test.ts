import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import * as z from 'zod'
import { defineTool } from '../definition/define-tool.js'
import type { AnyToolDefinition } from '../definition/tool-definition.js'
import type { JsonObject, JsonValue } from '../json-schema/json-value.js'
import { createToolRuntime } from '../pipeline/create-tool-runtime.js'

/** A zod schema together with values that are mostly near it: valid ones, and ones one mistake away. */
interface Generated {
  readonly schema: z.ZodType
  readonly value: fc.Arbitrary<unknown>
}

const anyJson = fc.jsonValue({ maxDepth: 2 })

const leaf: fc.Arbitrary<Generated> = fc.oneof(
  fc
    .record({ min: fc.nat({ max: 4 }), max: fc.nat({ max: 8 }), email: fc.boolean() }, { requiredKeys: [] })
    .map(({ min, max, email }) => {
      let schema = email === true ? z.string().email() : z.string()
      if (min !== undefined) schema = schema.min(min)
      if (max !== undefined) schema = schema.max(Math.max(max, min ?? 0))
      const text = email === true ? fc.constantFrom('ada@example.com', 'not an email; DROP TABLE', 'a@b') : fc.string()
      return { schema, value: fc.oneof(text, anyJson) }
    }),
  fc
    .record({ int: fc.boolean(), min: fc.integer({ min: -5, max: 0 }), max: fc.integer({ min: 0, max: 5 }) })
    .map(({ int, min, max }) => ({
      schema: (int ? z.number().int() : z.number()).min(min).max(max),
      value: fc.oneof(fc.integer({ min: -8, max: 8 }), fc.double({ min: -8, max: 8, noNaN: true }), anyJson),
    })),
  fc.constant({ schema: z.boolean(), value: fc.oneof(fc.boolean(), anyJson) }),
  fc.constant({ schema: z.enum(['red', 'green']), value: fc.oneof(fc.constantFrom('red', 'green', 'blue'), anyJson) }),
  fc.constant({ schema: z.literal(7), value: fc.oneof(fc.constantFrom(7, 8), anyJson) }),
  fc.constant({
    schema: z.string().refine((text) => text.length % 2 === 0, 'even length'),
    value: fc.oneof(fc.string(), anyJson),
  }),
  fc.constant({ schema: z.string().transform((text) => text.length), value: fc.oneof(fc.string(), anyJson) }),
)

const modified = (inner: fc.Arbitrary<Generated>): fc.Arbitrary<Generated> =>
  fc.tuple(inner, fc.constantFrom('none', 'optional', 'nullable', 'default')).map(([generated, modifier]) => {
    if (modifier === 'optional') return { schema: generated.schema.optional(), value: generated.value }
    if (modifier === 'nullable') {
      return { schema: generated.schema.nullable(), value: fc.oneof(generated.value, fc.constant(null)) }
    }
    if (modifier === 'default') {
      // The default is the library's business: zod fills it in without checking it, and so must we.
      return { schema: (generated.schema as z.ZodType<unknown>).default('fallback'), value: generated.value }
    }
    return generated
  })

const keys = fc.constantFrom('a', 'b', 'c', 'd')

const objectOf = (member: fc.Arbitrary<Generated>, strict: boolean): fc.Arbitrary<Generated> =>
  fc.dictionary(keys, member, { maxKeys: 4 }).map((members) => {
    const shape = Object.fromEntries(Object.entries(members).map(([key, generated]) => [key, generated.schema]))
    const valueShape = Object.fromEntries(
      Object.entries(members).map(([key, generated]) => [key, generated.value] as const),
    )
    const value = fc
      .tuple(
        fc.record(valueShape, { requiredKeys: [] }),
        fc.dictionary(fc.constantFrom('c', 'x'), anyJson, { maxKeys: 1 }),
      )
      .map(([known, extra]) => ({ ...extra, ...known }))
    return { schema: strict ? z.strictObject(shape) : z.object(shape), value }
  })

const { node } = fc.letrec<{ node: Generated }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    modified(leaf),
    modified(objectOf(tie('node'), false)),
    tie('node').map((generated) => ({
      schema: z.array(generated.schema).max(3),
      value: fc.oneof(fc.array(generated.value, { maxLength: 4 }), anyJson),
    })),
  ),
}))

const root = fc.tuple(fc.boolean(), fc.constant(null)).chain(([strict]) => objectOf(node, strict))

const generatedCase = root.chain((generated) => fc.tuple(fc.constant(generated.schema), generated.value))

describe('zod through the pipeline decides as zod does', () => {
  test('for generated zod schemas and inputs, the verdict is safeParse success and the value is its data', async () => {
    const verdicts = { accepted: 0, refused: 0 }
    await fc.assert(
      fc.asyncProperty(generatedCase, async ([schema, input]) => {
        let received: unknown
        const runtime = createToolRuntime()
        const tool = defineTool({
          name: 'probe',
          description: 'x',
          parameters: schema as z.ZodObject,
          execute: (args) => {
            received = args
            return null
          },
        })
        runtime.register(tool as unknown as AnyToolDefinition)
        // What the model sends is JSON text; safeParse gets the same value, parsed.
        const text = JSON.stringify(input as JsonValue)
        const result = await runtime.execute({ id: '1', name: 'probe', arguments: text })
        const expected = schema.safeParse(JSON.parse(text) as JsonObject)
        expect({ ok: result.ok, code: result.ok ? undefined : result.error.code }).toEqual({
          ok: expected.success,
          code: expected.success ? undefined : 'INVALID_ARGUMENTS',
        })
        if (expected.success) expect(received).toEqual(expected.data)
        verdicts[expected.success ? 'accepted' : 'refused']++
      }),
      { numRuns: 300 },
    )
    // Both verdicts must be well represented, or the property says little.
    expect(verdicts.accepted).toBeGreaterThan(30)
    expect(verdicts.refused).toBeGreaterThan(30)
  })
})
