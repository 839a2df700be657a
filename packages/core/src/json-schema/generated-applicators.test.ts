import { describe, expect, it } from 'vitest'
import { compileSchema } from './compile.js'
import { generateValidator } from './generate-validator.js'
import type { JsonSchemaNode } from './node.js'

describe('generated applicators', () => {
  it('dispatches a tagged union on its tag only when the tag makes the branches exclusive', () => {
    const branches = [
      { type: 'object', properties: { kind: { const: 'a' }, n: { type: 'integer' } }, required: ['kind', 'n'] },
      { type: 'object', properties: { kind: { const: 2 }, s: { minLength: 2 } }, required: ['kind'] },
      { type: 'object', properties: { kind: { enum: [true] } }, required: ['kind'], additionalProperties: false },
    ]
    // Without `required` on the tag, an object lacking it may match a branch: no dispatch is possible.
    const open = [branches[0], { type: 'object', properties: { kind: { const: 'b' } } }]
    // A branch that also takes null (either spelling) matches null whatever the tag.
    const nullable = [
      branches[0],
      { type: 'object', nullable: true, properties: { kind: { const: 'b' } }, required: ['kind'] },
    ]
    const typeList = [
      branches[0],
      { type: ['object', 'null'], properties: { kind: { const: 'b' } }, required: ['kind'] },
    ]
    const values = [
      { kind: 'a', n: 1 },
      { kind: 'a', n: 'x' },
      { kind: 'a' },
      { kind: 2, s: 'xy' },
      { kind: 2, s: 'x' },
      { kind: true },
      { kind: true, extra: 1 },
      { kind: 'b' },
      { kind: 'zzz', n: 1 },
      { n: 1 },
      {},
      JSON.parse('{"kind": "a", "n": 1, "__proto__": 1}'),
      'text',
      null,
      [{ kind: 'a', n: 1 }],
    ]
    const unions = [branches, open, nullable, typeList].flatMap((list) => [{ oneOf: list }, { anyOf: list }])
    for (const union of unions) {
      for (const schema of [union, { type: 'array', items: union }] as JsonSchemaNode[]) {
        const generated = compileSchema(schema)
        const closures = compileSchema(schema, { codegen: false })
        // The generated verdict alone too: `validate` re-asks the closure tree when generated code fails unexplained.
        const generatedOnly = generateValidator(schema, {
          lenient: false,
          assertFormats: false,
          maxDepth: 64,
          codegen: true,
        })?.entry({ valid: true }, [], () => ({ valid: false, issues: [] }))
        for (const value of values) {
          const input = typeof schema === 'object' && schema.type === 'array' ? [value, value] : value
          const expected = closures.validate(input)
          const result = generated.validate(input)
          expect([value, result.valid, generatedOnly?.(input).valid]).toEqual([value, expected.valid, expected.valid])
          if (!result.valid && !expected.valid) {
            expect(result.issues).toEqual(expected.issues.filter((issue) => issue.path === expected.issues[0]!.path))
          }
        }
      }
    }
  })
})
