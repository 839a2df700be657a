import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import * as z from 'zod'
import { defineTool } from '../definition/define-tool.js'
import { compileSchema } from '../json-schema/compile.js'
import { isStandardSchema } from './standard-schema.js'
import { parametersToJsonSchema, toJsonSchema } from './to-json-schema.js'

const libraries = {
  zod: z.object({
    query: z.string().min(1),
    limit: z.number().int().max(50).optional(),
    mode: z.enum(['exact', 'fuzzy']),
    tags: z.array(z.string()),
  }),
  valibot: toStandardJsonSchema(
    v.object({
      query: v.pipe(v.string(), v.minLength(1)),
      limit: v.optional(v.pipe(v.number(), v.integer(), v.maxValue(50))),
      mode: v.picklist(['exact', 'fuzzy']),
      tags: v.array(v.string()),
    }),
  ),
  arktype: type({ query: 'string > 0', 'limit?': 'number.integer <= 50', mode: "'exact' | 'fuzzy'", tags: 'string[]' }),
}

describe('Standard Schema intake', () => {
  test.each(Object.entries(libraries))(
    '%s parameters convert and validate like the library would',
    (vendor, schema) => {
      expect(isStandardSchema(schema)).toBe(true)
      const node = parametersToJsonSchema(schema)
      expect(node.type).toBe('object')
      expect(node).not.toHaveProperty('$schema')
      const validator = compileSchema(node)
      const valid = { query: 'x', limit: 10, mode: 'exact', tags: ['a'] }
      expect(validator.validate(valid)).toEqual({ valid: true })
      expect(validator.validate({ query: 'x', mode: 'fuzzy', tags: [] })).toEqual({ valid: true })
      for (const invalid of [
        { ...valid, query: '' },
        { ...valid, limit: 51 },
        { ...valid, limit: 1.5 },
        { ...valid, mode: 'regex' },
        { ...valid, tags: [1] },
        { query: 'x', tags: [] },
      ]) {
        expect({ vendor, invalid, result: validator.validate(invalid).valid }).toEqual({
          vendor,
          invalid,
          result: false,
        })
      }
    },
  )

  test('zod conversion is pinned', () => {
    expect(JSON.stringify(parametersToJsonSchema(libraries.zod))).toMatchInlineSnapshot(
      `"{"type":"object","properties":{"query":{"type":"string","minLength":1},"limit":{"type":"integer","minimum":-9007199254740991,"maximum":50},"mode":{"type":"string","enum":["exact","fuzzy"]},"tags":{"type":"array","items":{"type":"string"}}},"required":["query","mode","tags"]}"`,
    )
  })

  test('standard schemas stand in DSL positions; optional ones stay optional', () => {
    const node = parametersToJsonSchema({
      query: z.string(),
      page: z.number().optional(),
      filter: {
        type: 'object',
        properties: { owner: type('string'), label: toStandardJsonSchema(v.optional(v.string())) },
      },
    } as never)
    expect(node.required).toEqual(['query'])
    expect(node.properties?.filter).toMatchObject({ required: ['owner'] })
  })

  test('defineTool converts output schemas too', () => {
    const tool = defineTool({
      name: 'stats',
      description: 'x',
      parameters: z.object({ id: z.string() }),
      output: { schema: z.object({ count: z.number() }) },
      execute: () => ({ count: 1 }),
    })
    expect(tool.output?.schema).toEqual({
      type: 'object',
      properties: { count: { type: 'number' } },
      required: ['count'],
    })
  })

  test('what cannot convert fails at defineTool naming the tool, the path and the library reason', () => {
    const attempt = (parameters: unknown) => () =>
      defineTool({ name: 'when', description: 'x', parameters: parameters as never, execute: () => null })
    expect(attempt({ at: z.date() })).toThrow(
      'Tool "when": parameters.at: the zod schema cannot be converted to JSON Schema: Date cannot be represented in JSON Schema',
    )
    expect(attempt(z.object({ id: z.bigint() }))).toThrow(/Tool "when": parameters: the zod schema cannot be converted/)
    expect(attempt(toStandardJsonSchema(v.object({ at: v.date() })))).toThrow(
      /parameters: the valibot schema cannot be converted to JSON Schema: The "date" schema cannot be converted/,
    )
    expect(attempt(v.object({ id: v.string() }))).toThrow(
      'Tool "when": parameters: the valibot schema has no JSON Schema converter (~standard.jsonSchema); wrap it with toStandardJsonSchema(schema) from @valibot/to-json-schema',
    )
    expect(attempt(z.string())).toThrow('parameters must be object-rooted')
  })

  test('a pattern the linear engine cannot run is refused at defineTool, not shown to the model unchecked', () => {
    const attempt = (parameters: unknown) => () =>
      defineTool({ name: 'find', description: 'x', parameters: parameters as never, execute: () => null })
    expect(attempt(z.object({ id: z.string().regex(/^(?!tmp)\w+$/) }))).toThrow(
      'Tool "find": parameters: the zod schema has a pattern at /properties/id that cannot be enforced: lookahead and lookbehind assertions are not supported by the linear regex engine',
    )
    expect(attempt(z.object({ id: z.string().regex(/^(a{1,20}){1,20}$/) }))).not.toThrow()
  })

  test('a recursive schema with $defs may stand at the root only', () => {
    const category = z.object({
      name: z.string(),
      get children() {
        return z.array(category)
      },
    })
    const rooted = toJsonSchema(category)
    expect(JSON.stringify(rooted)).toContain('$ref')
    expect(compileSchema(rooted).validate({ name: 'a', children: [{ name: 'b', children: [] }] })).toEqual({
      valid: true,
    })
    expect(() => toJsonSchema({ type: 'array', items: category })).toThrow(/items: a schema using \$ref/)
  })
})

describe('what a Standard Schema enforces beyond its JSON Schema is reported on the definition', () => {
  const define = (parameters: unknown, output?: unknown) =>
    defineTool({
      name: 'noted',
      description: 'x',
      parameters: parameters as never,
      ...(output === undefined ? {} : { output: { schema: output as never } }),
      execute: () => null as never,
    })

  test('a faithful schema has no notes; each library names what its converter cannot show', () => {
    expect(define(z.object({ a: z.string().min(1) })).schemaNotes).toBeUndefined()
    expect(define(z.object({ a: z.string().refine(Boolean), b: z.string().transform(Number) })).schemaNotes).toEqual([
      "parameters, at /properties/b: a transform (.transform or z.preprocess): zod enforces it on every call; the model's schema does not show it",
      "parameters, at /properties/a: a refinement (.refine, .superRefine or .check): zod enforces it on every call; the model's schema does not show it",
    ])
    expect(define(toStandardJsonSchema(v.object({ a: v.pipe(v.string(), v.transform(Number)) }))).schemaNotes).toEqual([
      `parameters, at its root: The "transform" action cannot be converted to JSON Schema: valibot enforces it on every call; the model's schema does not show it`,
    ])
    expect(define(type({ a: type('string').narrow(Boolean) })).schemaNotes).toEqual([
      "parameters, at its root: a predicate (.narrow): arktype enforces it on every call; the model's schema does not show it",
    ])
  })

  test('nested in a DSL spec, or as the output schema, a refinement is neither run nor shown, and the note says so', () => {
    const tool = define({ to: z.string().refine(Boolean) }, z.object({ n: z.number().refine(Boolean) }))
    expect(tool.schemaNotes).toEqual([
      'parameters.to, at its root: a refinement (.refine, .superRefine or .check): not enforced, nor shown to the model (only a Standard Schema given as the whole parameters is run by its library)',
      'output.schema, at /properties/n: a refinement (.refine, .superRefine or .check): not enforced, nor shown to the model (only a Standard Schema given as the whole parameters is run by its library)',
    ])
  })

  test('a schema with thousands of refinements gets a bounded report', () => {
    const shape = Object.fromEntries(
      Array.from({ length: 2000 }, (_, index) => [`k${index}`, z.string().refine(Boolean)]),
    )
    expect(define(z.object(shape)).schemaNotes).toHaveLength(20)
  })
})
