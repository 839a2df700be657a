import { describe, expect, it } from 'vitest'
import { worstEventLoopLag } from './__fixtures__/event-loop-lag.js'
import { compileSchema } from './compile.js'
import type { JsonSchemaNode } from './node.js'
import { parseJsonArguments } from './parse-json-arguments.js'
import { SchemaCompileError } from './schema-compile-error.js'

describe('hostile input', () => {
  it('validates __proto__, constructor and prototype like any key and pollutes nothing', () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort()
    const value = JSON.parse(
      '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}, "prototype": 1}',
    )
    const closed = compileSchema(
      JSON.parse(`{
        "type": "object",
        "properties": { "__proto__": { "type": "object", "required": ["polluted"] }, "constructor": { "type": "object" } },
        "required": ["__proto__", "constructor", "prototype"],
        "additionalProperties": { "type": "integer" }
      }`),
    )
    expect(closed.validate(value)).toEqual({ valid: true })
    expect(closed.validate(JSON.parse('{"__proto__": 1}')).valid).toBe(false)
    const strict = compileSchema({ type: 'object', properties: { a: {} }, additionalProperties: false })
    const rejected = strict.validate(value)
    expect(rejected.valid ? [] : rejected.issues.map((issue) => issue.message)).toMatchInlineSnapshot(`
      [
        "at (root): unexpected property "__proto__"; allowed properties: "a"",
        "at (root): unexpected property "constructor"; allowed properties: "a"",
        "at (root): unexpected property "prototype"; allowed properties: "a"",
      ]
    `)
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('does not treat inherited members as present properties', () => {
    const compiled = compileSchema({ type: 'object', required: ['constructor', 'toString'] })
    const result = compiled.validate({})
    expect(result.valid ? [] : result.issues.map((issue) => issue.message)).toMatchInlineSnapshot(`
      [
        "at (root): missing required property "constructor"",
        "at (root): missing required property "toString"",
      ]
    `)
  })

  it('turns nesting beyond maxDepth into an issue instead of a stack overflow', () => {
    let value: unknown = 'leaf'
    for (let level = 0; level < 10_000; level++) value = [value]
    const recursive = compileSchema({
      $defs: { list: { type: ['array', 'string'], items: { $ref: '#/$defs/list' } } },
      $ref: '#/$defs/list',
    })
    const result = recursive.validate(value)
    expect(result.valid ? [] : result.issues.map((issue) => issue.keyword)).toEqual(['depth'])
    const shallow = compileSchema({ items: { items: { items: {} } } }, { maxDepth: 2 }).validate([[[1]]])
    expect(shallow.valid).toBe(false)
  })

  it('compares deep values for const and uniqueItems without overflowing', () => {
    let value: unknown = 1
    for (let level = 0; level < 100_000; level++) value = [value]
    expect(compileSchema({ uniqueItems: true }).validate([value, value]).valid).toBe(false)
    expect(compileSchema({ const: [[1]] }).validate(value).valid).toBe(false)
  })

  it('runs catastrophic patterns (issue 14) in linear time, generated and closure paths, with the event loop free', async () => {
    const nested = '(a{1,20}){1,20}b'
    const cases: [schema: JsonSchemaNode, attacks: unknown[], matching: unknown][] = [
      [{ type: 'string', pattern: nested }, ['a'.repeat(36), 'a'.repeat(4096)], `${'a'.repeat(36)}b`],
      [{ type: 'string', pattern: '^(a+)+$' }, [`${'a'.repeat(36)}!`, `${'a'.repeat(4095)}!`], 'a'.repeat(36)],
      [
        { type: 'object', propertyNames: { pattern: nested } },
        [{ ['a'.repeat(36)]: 1 }, { ['a'.repeat(4096)]: 2 }],
        { [`${'a'.repeat(36)}b`]: 1 },
      ],
    ]
    for (const [schema, attacks, matching] of cases) {
      for (const codegen of [true, false]) {
        const validator = compileSchema(schema, { codegen })
        for (const input of attacks) {
          let valid: boolean | undefined
          const lag = await worstEventLoopLag(() => {
            valid = validator.validate(input).valid
          })
          expect([JSON.stringify(schema), valid]).toEqual([JSON.stringify(schema), false])
          expect(lag, JSON.stringify(schema)).toBeLessThan(100)
        }
        expect(validator.validate(matching)).toEqual({ valid: true })
      }
    }
  })

  it('refuses a pattern the linear engine cannot express in strict mode, and reports it in lenient mode', () => {
    expect(() => compileSchema({ propertyNames: { pattern: '(a{1,30}){1,30}b' } })).toThrow(
      /compiles to 1802 instructions, over the 1000 the linear regex engine runs/,
    )
    expect(() => compileSchema({ pattern: '^(?=a)a+$' })).toThrow(
      /pattern at \(schema root\): "\^\(\?=a\)a\+\$" is not checked here: lookahead and lookbehind/,
    )
    expect(() => compileSchema({ propertyNames: { pattern: '(a)\\1' } })).toThrow(SchemaCompileError)
    const lenient = compileSchema({ type: 'string', pattern: '(a)\\1' }, { lenient: true })
    expect(lenient.unknownKeywords).toEqual([{ path: '', keyword: 'pattern' }])
    expect(lenient.validate('ab')).toEqual({ valid: true })
  })

  it('caps the string length a pattern runs on', () => {
    const compiled = compileSchema({ pattern: 'a*b' })
    const result = compiled.validate('a'.repeat(1_000_000))
    expect(result.valid ? [] : result.issues.map((issue) => issue.message)).toMatchInlineSnapshot(`
      [
        "at (root): string of 1000000 characters is longer than the 4096 checked against pattern "a*b"",
      ]
    `)
    expect(compiled.validate('aaab')).toEqual({ valid: true })
  })
})

describe('parseJsonArguments', () => {
  it('parses valid JSON, including a __proto__ key as plain data', () => {
    const parsed = parseJsonArguments('{"__proto__": {"polluted": 1}, "a": [1, 2.5, null]}')
    expect(parsed.ok && Object.keys(parsed.value as object)).toEqual(['__proto__', 'a'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('explains invalid JSON with line and column', () => {
    expect(parseJsonArguments('{"path": "a",\n "limit": }')).toMatchInlineSnapshot(`
      {
        "message": "arguments are not valid JSON: at line 2, column 11: expected a JSON value, found "}"",
        "ok": false,
      }
    `)
    expect(parseJsonArguments("{'path': 1}")).toMatchInlineSnapshot(`
      {
        "message": "arguments are not valid JSON: at line 1, column 2: expected a property name in double quotes, found "'path': 1}"",
        "ok": false,
      }
    `)
    expect(parseJsonArguments('{"a": 1')).toMatchInlineSnapshot(`
      {
        "message": "arguments are not valid JSON: at line 1, column 8: expected "," or "}" after a property value, found the end of the input",
        "ok": false,
      }
    `)
    expect(parseJsonArguments('')).toMatchInlineSnapshot(`
      {
        "message": "arguments are not valid JSON: at line 1, column 1: expected a JSON value, found the end of the input",
        "ok": false,
      }
    `)
  })

  it('refuses text over the size limit, counting UTF-8 bytes', () => {
    expect(parseJsonArguments(`"${'x'.repeat(2 * 1024 * 1024)}"`)).toMatchInlineSnapshot(`
      {
        "message": "arguments are 2097154 bytes of JSON, more than the limit of 1048576 bytes",
        "ok": false,
      }
    `)
    expect(parseJsonArguments(`"${'é'.repeat(600)}"`, { maxBytes: 1000 }).ok).toBe(false)
    expect(parseJsonArguments(`"${'é'.repeat(400)}"`, { maxBytes: 1000 }).ok).toBe(true)
  })

  it('refuses nesting over the depth limit before parsing, ignoring brackets inside strings', () => {
    expect(parseJsonArguments(`${'['.repeat(500_000)}${']'.repeat(500_000)}`)).toMatchInlineSnapshot(`
      {
        "message": "arguments nest arrays and objects deeper than the limit of 64 levels",
        "ok": false,
      }
    `)
    expect(parseJsonArguments(`["${'['.repeat(500)}"]`).ok).toBe(true)
    expect(parseJsonArguments(`${'['.repeat(10)}${']'.repeat(10)}`, { maxDepth: 9 }).ok).toBe(false)
    expect(parseJsonArguments(`${'['.repeat(9)}${']'.repeat(9)}`, { maxDepth: 9 }).ok).toBe(true)
  })
})
