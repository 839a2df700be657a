import { describe, expect, it } from 'vitest'
import { compileSchema } from './compile.js'
import type { JsonSchemaNode } from './node.js'

/** What each path says about a value; the generated path answers from the second call on, so it is warmed first. */
function messages(schema: JsonSchemaNode, value: unknown, codegen: boolean): string[] {
  const compiled = compileSchema(schema, { codegen })
  compiled.validate({})
  const result = compiled.validate(value)
  return result.valid ? [] : result.issues.map((issue) => issue.message)
}

// JSON.parse defines "__proto__" as an own data key, as the pipeline's frozen copy does for a caller's object.
const hostile = JSON.parse('{"label":"x","__proto__":{"limit":3}}') as unknown

describe.each([true, false])('an own "__proto__" key, codegen %s', (codegen) => {
  it('is an unexpected property beside declared ones under additionalProperties: false', () => {
    const schema: JsonSchemaNode = {
      type: 'object',
      properties: { label: { type: 'string' }, limit: { type: 'integer' } },
      required: ['label'],
      additionalProperties: false,
    }
    expect(messages(schema, hostile, codegen)).toEqual([
      'at (root): unexpected property "__proto__"; allowed properties: "label", "limit"',
    ])
  })

  it('is an unexpected property with no declared ones, and is counted, named and checked like any key', () => {
    const onlyProto = JSON.parse('{"__proto__":{"limit":3}}') as unknown
    expect(messages({ type: 'object', additionalProperties: false }, onlyProto, codegen)).toEqual([
      'at (root): unexpected property "__proto__"; allowed properties: none',
    ])
    expect(messages({ type: 'object', maxProperties: 1 }, hostile, codegen)).toHaveLength(1)
    expect(messages({ type: 'object', propertyNames: { pattern: '^[a-z]+$' } }, onlyProto, codegen)).toHaveLength(1)
    expect(messages({ type: 'object', additionalProperties: { type: 'string' } }, onlyProto, codegen)).toEqual([
      'at /__proto__: expected string, received object {"limit":3}',
    ])
  })

  it('is never read as the object\'s members: its "limit" is not a property', () => {
    const schema: JsonSchemaNode = { type: 'object', required: ['limit'] }
    expect(messages(schema, hostile, codegen)).toEqual(['at (root): missing required property "limit"'])
  })
})
