import { describe, expect, it } from 'vitest'
import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import { compileSchema } from './compile.js'
import type { JsonSchemaNode } from './node.js'
import { SchemaCompileError } from './schema-compile-error.js'

function messages(schema: JsonSchemaNode, value: unknown): string[] {
  const result = compileSchema(schema).validate(value)
  return result.valid ? [] : result.issues.map((issue) => `${issue.keyword} ${issue.message}`)
}

function compileError(schema: JsonSchemaNode, options = {}): string {
  try {
    compileSchema(schema, options)
  } catch (error) {
    if (error instanceof SchemaCompileError) return `${error.keyword} @ ${error.schemaPath}: ${error.message}`
    throw error
  }
  return 'compiled'
}

describe('issue messages', () => {
  it('type, including integers written as 1.0 and type lists', () => {
    const limit = { type: 'object', properties: { limit: { type: 'integer' } } } as const
    expect(messages(limit, { limit: '10' })).toMatchInlineSnapshot(`
      [
        "type at /limit: expected integer, received string "10"",
      ]
    `)
    expect(messages(limit, { limit: 2.5 })).toMatchInlineSnapshot(`
      [
        "type at /limit: expected integer, received number 2.5",
      ]
    `)
    expect(messages(limit, { limit: 1.0 })).toEqual([])
    expect(messages({ type: ['string', 'null'] }, [1, 2])).toMatchInlineSnapshot(`
      [
        "type at (root): expected string or null, received array of 2 items",
      ]
    `)
  })

  it('enum and const list what is allowed', () => {
    expect(messages({ enum: ['asc', 'desc'] }, 'up')).toMatchInlineSnapshot(`
      [
        "enum at (root): expected one of "asc", "desc"; received string "up"",
      ]
    `)
    expect(messages({ const: { kind: 'x' } }, { kind: 'y' })).toMatchInlineSnapshot(`
      [
        "const at (root): expected {"kind":"x"}, received object {"kind":"y"}",
      ]
    `)
    expect(messages({ const: 1 }, 1.0)).toEqual([])
  })

  it('string bounds count code points, and pattern quotes the pattern', () => {
    expect(messages({ maxLength: 2 }, '🐲🐲')).toEqual([])
    expect(messages({ maxLength: 2 }, '🐲🐲🐲')).toMatchInlineSnapshot(`
      [
        "maxLength at (root): expected at most 2 characters, received 3 characters",
      ]
    `)
    expect(messages({ minLength: 3 }, 'ab')).toMatchInlineSnapshot(`
      [
        "minLength at (root): expected at least 3 characters, received 2 characters",
      ]
    `)
    expect(messages({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, '31/01/2026')).toMatchInlineSnapshot(`
      [
        "pattern at (root): expected a string matching pattern "^\\\\d{4}-\\\\d{2}-\\\\d{2}$", received "31/01/2026"",
      ]
    `)
  })

  it('number bounds and multipleOf', () => {
    expect(messages({ minimum: 1, maximum: 10 }, 0)).toMatchInlineSnapshot(`
      [
        "minimum at (root): expected a number >= 1, received 0",
      ]
    `)
    expect(messages({ exclusiveMaximum: 10 }, 10)).toMatchInlineSnapshot(`
      [
        "exclusiveMaximum at (root): expected a number < 10, received 10",
      ]
    `)
    expect(messages({ multipleOf: 0.01 }, 0.125)).toMatchInlineSnapshot(`
      [
        "multipleOf at (root): expected a multiple of 0.01, received 0.125",
      ]
    `)
    expect(messages({ multipleOf: 0.0001 }, 0.0075)).toEqual([])
  })

  it('objects: required, unexpected keys with the allowed list, property counts and names', () => {
    const schema = {
      type: 'object',
      properties: { path: { type: 'string' }, limit: { type: 'integer' } },
      required: ['path'],
      additionalProperties: false,
    } as const
    expect(messages(schema, { limt: 5 })).toMatchInlineSnapshot(`
      [
        "additionalProperties at (root): unexpected property "limt"; allowed properties: "path", "limit"",
        "required at (root): missing required property "path"",
      ]
    `)
    expect(messages({ minProperties: 2 }, { a: 1 })).toMatchInlineSnapshot(`
      [
        "minProperties at (root): expected at least 2 properties, received 1",
      ]
    `)
    expect(messages({ propertyNames: { maxLength: 3 } }, { long: 1 })).toMatchInlineSnapshot(`
      [
        "propertyNames at (root): property name "long" is invalid: expected at most 3 characters, received 4 characters",
      ]
    `)
    expect(messages({ additionalProperties: { type: 'string' } }, { a: 'x', b: 2 })).toMatchInlineSnapshot(`
      [
        "type at /b: expected string, received integer 2",
      ]
    `)
  })

  it('arrays: bounds, tuples, unique items', () => {
    expect(messages({ minItems: 1 }, [])).toMatchInlineSnapshot(`
      [
        "minItems at (root): expected at least 1 item, received 0",
      ]
    `)
    expect(messages({ prefixItems: [{ type: 'string' }], items: false }, ['a', 'b'])).toMatchInlineSnapshot(`
      [
        "items at (root): expected at most 1 item, received 2",
      ]
    `)
    expect(messages({ items: [{ type: 'string' }], additionalItems: false }, ['a', 'b'])).toMatchInlineSnapshot(`
      [
        "additionalItems at (root): expected at most 1 item, received 2",
      ]
    `)
    expect(messages({ uniqueItems: true }, [{ a: 1 }, { a: 1.0 }])).toMatchInlineSnapshot(`
      [
        "uniqueItems at (root): expected unique items, but items 0 and 1 are both {"a":1}",
      ]
    `)
  })

  it('oneOf says how many matched and quotes the closest alternative', () => {
    const action = {
      oneOf: [
        { type: 'object', properties: { type: { const: 'click' }, x: { type: 'integer' } }, required: ['type', 'x'] },
        { type: 'object', properties: { type: { const: 'scroll' }, amount: { maximum: 10 } }, required: ['type'] },
      ],
    } as const
    expect(messages(action, { type: 'scroll', amount: 50 })).toMatchInlineSnapshot(`
      [
        "maximum at /amount: expected a number <= 10, received 50",
      ]
    `)
    expect(messages({ oneOf: [{ type: 'string', minLength: 5 }, { type: 'integer' }] }, 'ab')).toMatchInlineSnapshot(`
      [
        "oneOf at (root): expected exactly one of 2 alternatives to match, none did; closest is alternative 0: at (root): expected at least 5 characters, received 2 characters",
      ]
    `)
    const scroll = { type: 'scroll', amount: 50 }
    expect(compileSchema(action, { codegen: false }).validate(scroll)).toEqual(compileSchema(action).validate(scroll))
    expect(messages({ oneOf: [{ type: 'integer' }, { minimum: 0 }] }, 3)).toMatchInlineSnapshot(`
      [
        "oneOf at (root): expected exactly one of 2 alternatives to match, but alternatives 0 and 1 both match",
      ]
    `)
    expect(messages({ anyOf: [{ type: 'string' }, { type: 'null' }] }, 3)).toMatchInlineSnapshot(`
      [
        "anyOf at (root): expected at least one of 2 alternatives to match, none did; closest is alternative 0: at (root): expected string, received integer 3",
      ]
    `)
    expect(messages({ not: { type: 'string' } }, 'x')).toMatchInlineSnapshot(`
      [
        "not at (root): expected a value the "not" schema rejects, received string "x"",
      ]
    `)
  })

  it('reports at most five issues, each at most 512 characters', () => {
    const numbers = Array.from({ length: 20 }, (_, index) => index)
    const result = compileSchema({ items: { type: 'string' } }, { codegen: false }).validate(numbers)
    expect(result.valid ? [] : result.issues).toHaveLength(5)
    // With generated code (the default) the issues come from the first failing node, as Ajv's first error does.
    const first = compileSchema({ items: { type: 'string' } }).validate(numbers)
    expect(first.valid ? [] : first.issues.map((issue) => issue.path)).toEqual(['/0'])
    const long = compileSchema({ enum: Array.from({ length: 50 }, (_, index) => 'value'.repeat(20) + index) }).validate(
      1,
    )
    expect(long.valid ? 0 : long.issues[0]!.message.length).toBeLessThanOrEqual(512)
  })

  it('is deterministic: the same input gives byte-identical issues', () => {
    const compiled = compileSchema({ type: 'object', required: ['a', 'b'], additionalProperties: false })
    expect(JSON.stringify(compiled.validate({ c: 1 }))).toBe(JSON.stringify(compiled.validate({ c: 1 })))
  })
})

describe('tiering', () => {
  it('answers the same before and after the generated check takes over on the second call', () => {
    const compiled = compileSchema({
      type: 'object',
      properties: { path: { type: 'string', minLength: 1 }, limit: { type: 'integer', maximum: 10 } },
      required: ['path'],
      additionalProperties: false,
    })
    const inputs = [
      { path: 'a', limit: 3 },
      { path: '', limit: 30 },
      { limit: 1.0, path: 'b' },
      { path: 'a', extra: 1 },
    ]
    const first = inputs.map((input) => JSON.stringify(compiled.validate(input)))
    const later = [1, 2, 3].flatMap(() => inputs.map((input) => JSON.stringify(compiled.validate(input))))
    expect(later).toEqual([...first, ...first, ...first])
  })

  it('keeps working through a frozen compiled schema and through a detached validate', () => {
    const schema: JsonSchemaNode = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }
    const frozen = Object.freeze(compileSchema(schema))
    const { validate } = compileSchema(schema)
    for (const run of [(value: unknown) => frozen.validate(value), validate]) {
      expect([run({ n: 1 }).valid, run({ n: 'x' }).valid, run({}).valid, run({ n: 2 }).valid]).toEqual([
        true,
        false,
        false,
        true,
      ])
    }
  })

  it('escapes ~ and / in issue paths, for declared and for extra keys, with and without generated code', () => {
    const schema: JsonSchemaNode = {
      properties: { 'a/b': { type: 'string' } },
      additionalProperties: { items: { type: 'string' } },
    }
    const value = { 'a/b': 1, 'x~y': ['ok', 2] }
    for (const codegen of [true, false]) {
      const result = compileSchema(schema, { codegen }).validate(value)
      expect(result.valid ? [] : result.issues.map((issue) => issue.path)).toContain(codegen ? '/a~1b' : '/x~0y/1')
    }
    const extra = compileSchema(schema).validate({ 'x~y': ['ok', 2] })
    expect(extra.valid ? [] : extra.issues.map((issue) => issue.path)).toEqual(['/x~0y/1'])
  })

  it('words object-level failures inside arrays like the closure tree, including problems found later', () => {
    const edits = {
      type: 'array',
      items: {
        type: 'object',
        properties: { oldText: { type: 'string' }, newText: { type: 'string' } },
        required: ['oldText', 'newText'],
        additionalProperties: false,
      },
    } as const
    const value = [
      { oldText: 'a', newText: 'b' },
      { oldText: 'a', new_text: 'b' },
    ]
    expect(messages(edits, value)).toMatchInlineSnapshot(`
      [
        "additionalProperties at /1: unexpected property "new_text"; allowed properties: "oldText", "newText"",
        "required at /1: missing required property "newText"",
      ]
    `)
    // A missing key before a property that is also wrong: both are reported, as the closure tree reports them.
    const later = [{ newText: 3 }]
    const closures = compileSchema(edits, { codegen: false }).validate(later)
    const closureMessages = closures.valid ? [] : closures.issues.map((issue) => `${issue.keyword} ${issue.message}`)
    expect(messages(edits, later)).toEqual(closureMessages)
    expect(messages(edits, later)).toHaveLength(2)
  })

  it('refuses a maxDepth that is not a positive integer', () => {
    expect(() => compileSchema({}, { maxDepth: Number.NaN })).toThrow(
      new InvalidArgumentError('maxDepth must be a positive integer, received NaN'),
    )
  })
})

describe('references', () => {
  it('resolves local pointers with escapes and recursion', () => {
    const tree: JsonSchemaNode = {
      $defs: {
        'node~/x': {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/node~0~1x' } } },
        },
      },
      $ref: '#/$defs/node~0~1x',
    }
    expect(messages(tree, { children: [{ children: [] }] })).toEqual([])
    expect(messages(tree, { children: [{ children: [1] }] })).toMatchInlineSnapshot(`
      [
        "type at /children/0/children/0: expected object, received integer 1",
      ]
    `)
  })

  it('stops recursion that never descends into the value', () => {
    expect(messages({ $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' }, 1)).toHaveLength(1)
  })
})

describe('compile errors', () => {
  it('refuses unsupported keywords, naming the keyword and where it is', () => {
    expect(compileError({ properties: { a: { patternProperties: {} } } })).toMatchInlineSnapshot(
      `"patternProperties @ /properties/a: patternProperties at /properties/a: is not a supported keyword"`,
    )
    expect(compileError({ $schema: 'http://json-schema.org/draft-04/schema#' })).toMatchInlineSnapshot(
      `"$schema @ : $schema at (schema root): dialect "http://json-schema.org/draft-04/schema#" is not supported; use draft-07 or 2020-12"`,
    )
    expect(compileError({ properties: { a: { $id: 'x' } } })).toMatchInlineSnapshot(
      `"$id @ /properties/a: $id at /properties/a: is only supported at the schema root"`,
    )
  })

  it('refuses bad keyword values and unresolvable references, also in lenient mode', () => {
    expect(compileError({ minLength: -1 }, { lenient: true })).toMatchInlineSnapshot(
      `"minLength @ : minLength at (schema root): must be a non-negative integer"`,
    )
    expect(compileError(JSON.parse('{"type": "text"}'), { lenient: true })).toMatchInlineSnapshot(
      `"type @ : type at (schema root): unknown type "text""`,
    )
    expect(compileError({ $ref: '#/$defs/missing' }, { lenient: true })).toMatchInlineSnapshot(
      `"$ref @ : $ref at (schema root): "#/$defs/missing" does not resolve to a schema"`,
    )
    expect(compileError({ $ref: 'https://example.com/schema' }, { lenient: true })).toMatchInlineSnapshot(
      `"$ref @ : $ref at (schema root): "https://example.com/schema" is not a local reference; only "#..." references are supported"`,
    )
    expect(compileError(JSON.parse('{"exclusiveMinimum": true}'))).toMatchInlineSnapshot(
      `"exclusiveMinimum @ : exclusiveMinimum at (schema root): the draft-04 boolean form is not supported; use a number"`,
    )
  })

  it('lenient mode ignores unknown keywords and lists them', () => {
    const schema = JSON.parse('{"properties": {"a": {"if": {}, "then": {}}}, "dependentRequired": {}}')
    const compiled = compileSchema(schema, { lenient: true })
    expect(compiled.unknownKeywords).toEqual([
      { path: '/properties/a', keyword: 'if' },
      { path: '/properties/a', keyword: 'then' },
      { path: '', keyword: 'dependentRequired' },
    ])
    expect(compiled.validate({ a: 1 })).toEqual({ valid: true })
  })

  it('treats formats as annotations unless asked, and ignores unknown formats', () => {
    expect(compileSchema({ format: 'email' }).validate('nope')).toEqual({ valid: true })
    expect(compileSchema({ format: 'email' }, { assertFormats: true }).validate('nope').valid).toBe(false)
    expect(compileSchema({ format: 'int32' }, { assertFormats: true }).validate('x')).toEqual({ valid: true })
  })

  it('nullable adds null to the type', () => {
    expect(compileSchema({ type: 'string', nullable: true }).validate(null)).toEqual({ valid: true })
    expect(compileSchema({ type: 'string', nullable: false }).validate(null).valid).toBe(false)
  })
})
