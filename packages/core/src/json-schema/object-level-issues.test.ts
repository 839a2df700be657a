import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileSchema } from './compile.js'
import type { JsonSchemaObject } from './node.js'
import { objectLevelIssues } from './object-level-issues.js'

const NAMES = ['a', 'b', 'path', 'a"b', 'x/y~z', '__proto__', 'constructor', 'toString', 'é', 'new_text'] as const

const shapeArbitrary = fc.record({
  declared: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 6 }),
  required: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 4 }),
  closed: fc.boolean(),
})

describe('object-level issues, written as a function per node', () => {
  it('says what the closure tree says about unexpected and missing keys, in its order and within its budget', () => {
    fc.assert(
      fc.property(
        shapeArbitrary,
        fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 10 }),
        ({ declared, required, closed }, present) => {
          const schema: JsonSchemaObject = {
            type: 'object',
            properties: Object.fromEntries(declared.map((key) => [key, { type: 'string' }])),
            required,
            ...(closed ? { additionalProperties: false } : {}),
          }
          // Parsed, so that "__proto__" is an own data key as it is in real arguments.
          const value = JSON.parse(JSON.stringify(Object.fromEntries(present.map((key) => [key, 'text']))))
          const wrapped = { type: 'array', items: schema } as const
          for (const [root, input] of [
            [schema, value],
            [wrapped, [value, value]],
          ] as const) {
            const generated = compileSchema(root).validate(input)
            const closures = compileSchema(root, { codegen: false }).validate(input)
            if (generated.valid || closures.valid) {
              expect(generated.valid).toBe(closures.valid)
              continue
            }
            // The generated engine reports the first failing node; here that is the first array item.
            const firstPath = closures.issues[0]!.path
            expect(generated.issues).toEqual(closures.issues.filter((issue) => issue.path === firstPath))
          }
        },
      ),
      { numRuns: 600, seed: 20_261_130 },
    )
  })

  it('stops at five issues', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: { a: {} },
      required: ['a'],
      additionalProperties: false,
    }
    const describe = objectLevelIssues(schema, 'at (root): ')
    const issues = describe({ k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6 }, '', 1)
    expect(issues.map((issue) => issue.message)).toEqual(
      ['k1', 'k2', 'k3', 'k4', 'k5'].map((key) => `at (root): unexpected property "${key}"; allowed properties: "a"`),
    )
  })

  it('words keys right after its memo of unexpected-key texts fills up and starts again', () => {
    const schema: JsonSchemaObject = { type: 'object', properties: { a: {} }, additionalProperties: false }
    const describe = objectLevelIssues(schema, 'at (root): ')
    const keys = Array.from({ length: 150 }, (_, index) => `key${index}`)
    for (const key of [...keys, ...keys, '__proto__', 'x'.repeat(100)]) {
      const [issue] = describe(JSON.parse(JSON.stringify({ [key]: 1 })), '', 1)
      expect(issue!.message).toBe(`at (root): unexpected property "${key}"; allowed properties: "a"`)
    }
  })

  it('quotes hostile keys as JSON and builds the message start from a pointer that is not constant', () => {
    const schema: JsonSchemaObject = { type: 'object', properties: {}, additionalProperties: false }
    const describe = objectLevelIssues(schema, '')
    const [issue] = describe(JSON.parse('{"a\\"\\n\\u0000b":1}'), '/items/3', 0)
    expect(issue).toEqual({
      path: '/items/3',
      keyword: 'additionalProperties',
      message: 'at /items/3: unexpected property "a\\"\\n\\u0000b"; allowed properties: none',
    })
  })

  it('cuts long messages like every other issue', () => {
    const schema: JsonSchemaObject = { type: 'object', required: ['a'] }
    const [issue] = objectLevelIssues(schema, '')({}, `/${'x'.repeat(600)}`, 0)
    expect(issue!.message).toHaveLength(512)
    expect(issue!.message.endsWith('…')).toBe(true)
  })

  it('reads inherited keys as absent, as the generated check does for names Object.prototype answers', () => {
    const schema: JsonSchemaObject = { type: 'object', required: ['toString', 'a'] }
    const issues = objectLevelIssues(schema, 'at (root): ')({}, '', 1)
    expect(issues.map((issue) => issue.message)).toEqual([
      'at (root): missing required property "toString"',
      'at (root): missing required property "a"',
    ])
  })
})
