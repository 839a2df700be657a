import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expectTypeOf, test } from 'vitest'
import * as z from 'zod'
import type { JsonObject, JsonValue } from '../json-schema/json-value.js'
import { jsonSchema } from '../schema/json-schema-spec.js'
import { defineTool } from './define-tool.js'
import type { ToolDefinition, ToolExecution } from './tool-definition.js'

describe('defineTool', () => {
  test('execute receives arguments typed from the parameters, without as const', () => {
    const readFile = defineTool({
      name: 'read_file',
      description: 'Read a file from disk.',
      parameters: {
        path: { type: 'string', required: true, description: 'Absolute file path' },
        offset: { type: 'number' },
        encoding: { type: 'string', enum: ['utf8', 'base64'] },
      },
      output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
      async execute(args, exec) {
        expectTypeOf(args).toEqualTypeOf<{ path: string; offset?: number; encoding?: 'utf8' | 'base64' }>()
        expectTypeOf(exec).toEqualTypeOf<ToolExecution>()
        return args.path
      },
    })
    expectTypeOf(readFile).toEqualTypeOf<
      ToolDefinition<{ path: string; offset?: number; encoding?: 'utf8' | 'base64' }, string>
    >()
  })

  test('the output schema types the return value and the renderers', () => {
    defineTool({
      name: 'stat',
      description: 'Describe a path.',
      parameters: { path: { type: 'string', required: true } },
      output: {
        schema: {
          type: 'object',
          properties: {
            kind: { type: 'string', enum: ['file', 'directory'], required: true },
            size: { type: 'integer', nullable: true, required: true },
          },
        },
        render(args, value) {
          expectTypeOf(args).toEqualTypeOf<{ path: string }>()
          expectTypeOf(value).toEqualTypeOf<{ kind: 'file' | 'directory'; size: number | null }>()
          return []
        },
      },
      presentResult(_args, value) {
        expectTypeOf(value).toEqualTypeOf<{ kind: 'file' | 'directory'; size: number | null }>()
        return { card: 'stat' }
      },
      execute: (_args) => ({ kind: 'file', size: null }),
    })
  })

  test('literal return values keep their literal types, with or without parameters', () => {
    const schema = { type: 'string', enum: ['on', 'off'] } as const
    defineTool({ name: 'a', description: 'x', parameters: {}, output: { schema }, execute: () => 'on' })
    defineTool({
      name: 'b',
      description: 'x',
      parameters: { on: { type: 'boolean', required: true } },
      output: { schema },
      execute: async (args) => (args.on ? 'on' : 'off'),
    })
    defineTool({
      name: 'c',
      description: 'x',
      parameters: {},
      output: { schema: { type: 'array', items: { type: 'object', properties: { state: schema } } } },
      execute: () => [{ state: 'on' }, {}],
    })
  })

  test('every callback sees the typed arguments', () => {
    defineTool({
      name: 'callbacks',
      description: 'x',
      parameters: { path: { type: 'string', required: true }, force: { type: 'boolean' } },
      executionMode(args) {
        expectTypeOf(args).toEqualTypeOf<{ path: string; force?: boolean }>()
        return args.force === true ? 'exclusive' : 'parallel'
      },
      finalizeContent(content, context) {
        expectTypeOf(context.args).toEqualTypeOf<{ path: string; force?: boolean }>()
        return content
      },
      presentCall(args) {
        expectTypeOf(args).toEqualTypeOf<{ path: string; force?: boolean }>()
        return { card: 'file', title: args.path }
      },
      execute: (args) => args.path,
    })
  })

  test('without output the return value is any JSON value', () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echo.',
      parameters: { value: { type: 'json', required: true } },
      execute: (args) => args.value,
    })
    expectTypeOf(echo).toEqualTypeOf<ToolDefinition<{ value: JsonValue }, JsonValue>>()
  })

  test('raw and Standard Schema parameters', () => {
    defineTool({
      name: 'raw',
      description: 'Raw.',
      parameters: jsonSchema({ type: 'object', properties: { q: { type: 'string' } } }),
      execute(args) {
        expectTypeOf(args).toEqualTypeOf<JsonObject>()
        return null
      },
    })
    defineTool({
      name: 'zod',
      description: 'Zod.',
      parameters: z.object({ q: z.string(), limit: z.number().int().optional() }),
      output: { schema: z.array(z.string()) },
      execute(args) {
        expectTypeOf(args).toEqualTypeOf<{ q: string; limit?: number | undefined }>()
        return [args.q]
      },
    })
    defineTool({
      name: 'valibot',
      description: 'Valibot.',
      parameters: toStandardJsonSchema(v.object({ q: v.string() })),
      execute(args) {
        expectTypeOf(args).toEqualTypeOf<{ q: string }>()
        return args.q
      },
    })
    defineTool({
      name: 'arktype',
      description: 'ArkType.',
      parameters: type({ q: 'string', 'n?': 'number' }),
      execute(args) {
        expectTypeOf(args).toEqualTypeOf<{ q: string; n?: number }>()
        return args.q
      },
    })
  })

  test('a defaulted key is always there in execute, at every level; the model may still leave it out', () => {
    defineTool({
      name: 'defaults',
      description: 'Defaults.',
      parameters: {
        retries: { type: 'integer', default: 3 },
        label: { type: 'string' },
        outer: {
          type: 'object',
          default: {},
          properties: {
            middle: {
              type: 'object',
              properties: { inner: { type: 'object', properties: { level: { type: 'string', default: 'three' } } } },
            },
          },
        },
      },
      execute(args) {
        expectTypeOf(args.retries).toEqualTypeOf<number>()
        expectTypeOf(args.outer).toEqualTypeOf<{ middle?: { inner?: { level: string } } }>()
        expectTypeOf(args).toHaveProperty('label').toEqualTypeOf<string | undefined>()
        // @ts-expect-error a key without a default stays optional
        expectTypeOf(args.label).toEqualTypeOf<string>()
        return null
      },
    })
  })

  test('a Standard Schema as the whole parameters gives execute its parsed output type', () => {
    defineTool({
      name: 'parsed',
      description: 'Parsed.',
      parameters: z.object({ n: z.number().default(5), word: z.string().transform((text) => text.length) }),
      execute(args) {
        expectTypeOf(args).toEqualTypeOf<{ n: number; word: number }>()
        return args.n + args.word
      },
    })
    defineTool({
      name: 'parsed_ark',
      description: 'Parsed.',
      parameters: type({ n: 'number = 5' }),
      execute(args) {
        expectTypeOf(args).toEqualTypeOf<{ n: number }>()
        return args.n
      },
    })
  })

  test('mistakes do not compile', () => {
    defineTool({
      name: 'wrong_argument',
      description: 'x',
      parameters: { count: { type: 'integer', required: true } },
      execute(args) {
        // @ts-expect-error: count is a number
        const text: string = args.count
        return text
      },
    })
    defineTool({
      name: 'optional_argument',
      description: 'x',
      parameters: { count: { type: 'integer' } },
      execute(args) {
        // @ts-expect-error: an optional argument may be absent
        const count: number = args.count
        return count
      },
    })
    defineTool({
      name: 'wrong_return',
      description: 'x',
      parameters: {},
      output: { schema: { type: 'string' } },
      // @ts-expect-error: the output schema says string
      execute: () => 42,
    })
    defineTool({
      name: 'wrong_async_return',
      description: 'x',
      parameters: {},
      output: { schema: { type: 'string', enum: ['a', 'b'] } },
      // @ts-expect-error: 'c' is not in the enum
      execute: async () => 'c',
    })
    defineTool({
      name: 'bad_mode',
      description: 'x',
      parameters: {},
      // @ts-expect-error: not an execution mode
      executionMode: 'serial',
      execute: () => null,
    })
    defineTool({
      name: 'unknown_kind',
      description: 'x',
      // @ts-expect-error: 'strin' is not a kind
      parameters: { path: { type: 'strin' } },
      execute: () => null,
    })
    defineTool({
      name: 'not_json',
      description: 'x',
      parameters: {},
      // @ts-expect-error: without an output schema the value must be JSON
      execute: () => new Date(),
    })
  })

  test('retry and budget hints are typed: idempotent a boolean, maxResultBytes a number, annotations the MCP names', () => {
    defineTool({
      name: 'hinted',
      description: 'x',
      parameters: {},
      idempotent: true,
      maxResultBytes: 20_000,
      annotations: {
        title: 'Hinted',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      execute: () => null,
    })
    defineTool({
      name: 'bad_hints',
      description: 'x',
      parameters: {},
      // @ts-expect-error: idempotent is a boolean
      idempotent: 'yes',
      // @ts-expect-error: readOnly is not an MCP annotation
      annotations: { readOnly: true },
      execute: () => null,
    })
  })
})
