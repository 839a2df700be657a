import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { expectFailure, expectSuccess } from '../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import type { AnyToolDefinition } from '../definition/tool-definition.js'
import type { StandardSchemaLike } from '../schema/standard-schema.js'
import type { ToolCall } from './call.js'
import { createToolRuntime } from './create-tool-runtime.js'
import type { ApprovalRequest } from './pipeline-events.js'

const call = (name: string, args: ToolCall['arguments']): ToolCall => ({ id: `c-${name}`, name, arguments: args })

/** A runtime whose every call goes to the approver, recording what the approver and the body were given. */
function observed(parameters: unknown, options: { timeoutMs?: number } = {}) {
  const seen: { approved: unknown[]; executed: unknown[] } = { approved: [], executed: [] }
  const runtime = createToolRuntime({
    approve: (request: ApprovalRequest) => {
      seen.approved.push(request.call.arguments)
      return true
    },
  })
  runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'record' }))
  const tool = defineTool({
    name: 'probe',
    description: 'Record the arguments.',
    parameters: parameters as never,
    ...options,
    execute: (args: unknown) => {
      seen.executed.push(args)
      return 'ok'
    },
  })
  runtime.register(tool as unknown as AnyToolDefinition)
  return { runtime, seen, tool }
}

const textOf = (result: { content: readonly unknown[] }) => (result.content[0] as { text: string }).text

describe('a Standard Schema as the whole parameters is validated by its own library', () => {
  it('zod rejects "not an email; DROP TABLE" that the model was told is an email', async () => {
    const { runtime, seen } = observed(z.object({ to: z.string().email() }))
    const result = await runtime.execute(call('probe', { to: 'not an email; DROP TABLE' }))
    expect(expectFailure(result).error.code).toBe('INVALID_ARGUMENTS')
    expect(textOf(result)).toMatchInlineSnapshot(
      `"Error: Invalid arguments for probe: at /to: Invalid email address, received string "not an email; DROP TABLE""`,
    )
    expect(seen).toEqual({ approved: [], executed: [] })
    expectSuccess(await runtime.execute(call('probe', { to: 'ada@example.com' })))
  })

  it.each([
    ['zod', z.object({ n: z.number().default(5), word: z.string().transform((text) => text.toUpperCase()) })],
    [
      'valibot',
      toStandardJsonSchema(
        v.object({
          n: v.optional(v.number(), 5),
          word: v.pipe(
            v.string(),
            v.transform((text) => text.toUpperCase()),
          ),
        }),
      ),
    ],
    ['arktype', type({ n: 'number = 5', word: type('string').pipe((text) => text.toUpperCase()) })],
  ])('%s: defaults and transforms reach the approver and execute', async (_vendor, schema) => {
    const { runtime, seen } = observed(schema)
    expectSuccess(await runtime.execute(call('probe', '{"word":"hi"}')))
    expect(seen.approved).toEqual([{ n: 5, word: 'HI' }])
    expect(seen.executed).toEqual([{ n: 5, word: 'HI' }])
    expect(Object.isFrozen(seen.executed[0])).toBe(true)
  })

  it.each([
    ['zod', z.object({ n: z.number().refine((value) => value % 2 === 0, 'must be even') })],
    [
      'valibot',
      toStandardJsonSchema(
        v.object({
          n: v.pipe(
            v.number(),
            v.check((value) => value % 2 === 0, 'must be even'),
          ),
        }),
      ),
    ],
    ['arktype', type({ n: type('number').narrow((value) => value % 2 === 0) })],
  ])('%s: a refinement the JSON Schema cannot show still runs, and the definition says so', async (_vendor, schema) => {
    const { runtime, seen, tool } = observed(schema)
    const result = await runtime.execute(call('probe', { n: 3 }))
    expect(expectFailure(result).error.code).toBe('INVALID_ARGUMENTS')
    expect(textOf(result)).toMatch(/^Error: Invalid arguments for probe: at \/n: .*received integer 3$/)
    expect(seen.executed).toEqual([])
    expectSuccess(await runtime.execute(call('probe', { n: 4 })))
    expect(tool.schemaNotes?.length).toBeGreaterThan(0)
    expect(tool.schemaNotes?.[0]).toMatch(/^parameters, at .*: (zod|valibot|arktype) enforces it on every call/)
  })

  it('the parsed value is frozen: zod hands every call the same default object, and no call can change it', async () => {
    const schema = z.object({ options: z.object({ tags: z.array(z.string()) }).default({ tags: [] }) })
    expect(() => schema.parse({}).options.tags.push('leaks')).not.toThrow()
    expect(schema.parse({}).options.tags).toEqual(['leaks'])
    const fresh = z.object({ options: z.object({ tags: z.array(z.string()) }).default({ tags: [] }) })
    const { runtime, seen } = observed(fresh)
    for (const id of ['1', '2']) {
      expectSuccess(await runtime.execute({ id, name: 'probe', arguments: '{}' }))
    }
    expect(seen.executed).toEqual([{ options: { tags: [] } }, { options: { tags: [] } }])
    expect(Object.isFrozen((seen.executed[0] as { options: { tags: string[] } }).options.tags)).toBe(true)
  })

  it('words library issues like our validator: the path, what was expected, what was received', async () => {
    const { runtime } = observed(z.object({ id: z.string(), tags: z.array(z.string()) }))
    const result = await runtime.execute(call('probe', { tags: ['a', 7] }))
    expect(textOf(result)).toMatchInlineSnapshot(
      `"Error: Invalid arguments for probe: at /id: expected string; the key is missing; at /tags/1: expected string, received integer 7"`,
    )
  })

  it('zod strips unknown keys (its own rule) while a zod strict object refuses them', async () => {
    const loose = observed(z.object({ a: z.string() }))
    expectSuccess(await loose.runtime.execute(call('probe', { a: 'x', extra: 1 })))
    expect(loose.seen.executed).toEqual([{ a: 'x' }])
    const strict = observed(z.strictObject({ a: z.string() }))
    expect(expectFailure(await strict.runtime.execute(call('probe', { a: 'x', extra: 1 }))).error.code).toBe(
      'INVALID_ARGUMENTS',
    )
  })

  it('an asynchronous validator is awaited', async () => {
    const schema = z.object({ name: z.string().refine(async (name) => name !== 'taken', 'is taken') })
    const { runtime, seen } = observed(schema)
    expect(textOf(await runtime.execute(call('probe', { name: 'taken' })))).toBe(
      'Error: Invalid arguments for probe: at /name: is taken, received string "taken"',
    )
    expectSuccess(await runtime.execute(call('probe', { name: 'free' })))
    expect(seen.executed).toEqual([{ name: 'free' }])
  })
})

/** A zod object whose `~standard.validate` the test replaces with hostile behaviour. */
function hostile(validate: (value: unknown) => unknown): StandardSchemaLike {
  const base = z.object({ a: z.string().optional() })
  const standard = { ...base['~standard'], validate }
  return new Proxy(base, {
    get: (target, key, receiver) => (key === '~standard' ? standard : Reflect.get(target, key, receiver)),
  }) as unknown as StandardSchemaLike
}

describe('a hostile Standard Schema fails the call cleanly, with a specific code and bounded text', () => {
  it('a validate that throws is TOOL_ERROR', async () => {
    const { runtime } = observed(
      hostile(() => {
        throw new Error('boom '.repeat(100_000))
      }),
    )
    const result = await runtime.execute(call('probe', {}))
    expect(expectFailure(result).error.code).toBe('TOOL_ERROR')
    expect(textOf(result)).toMatch(/^Error: The parameter schema of probe failed: its validate threw: boom boom/)
    expect(textOf(result).length).toBeLessThan(500)
  })

  it('a validate that rejects, or answers garbage, is TOOL_ERROR', async () => {
    for (const answer of [
      () => Promise.reject(new Error('nope')),
      () => 42,
      () => null,
      () => ({ issues: 'not an array' }),
      () => ({
        get issues() {
          throw new Error('trap')
        },
      }),
    ]) {
      const result = await observed(hostile(answer)).runtime.execute(call('probe', {}))
      expect({ answer: String(answer), code: expectFailure(result).error.code }).toEqual({
        answer: String(answer),
        code: 'TOOL_ERROR',
      })
    }
  })

  it('a million issues with megabyte messages and cyclic paths become five bounded issues', async () => {
    const cyclic: unknown[] = []
    cyclic.push(cyclic, { key: cyclic }, Symbol('s'))
    const huge = 'm'.repeat(1_000_000)
    const issues = Array.from({ length: 1_000_000 }, () => ({ message: huge, path: cyclic, expected: huge }))
    const result = await observed(hostile(() => ({ issues }))).runtime.execute(call('probe', { a: 'x' }))
    expect(expectFailure(result).error.code).toBe('INVALID_ARGUMENTS')
    expect(textOf(result).length).toBeLessThan(5 * 520)
    expect(textOf(result).split('; at ')).toHaveLength(5)
  })

  it('a validate that never settles ends at the definition deadline, or when the call is cancelled', async () => {
    const never = hostile(() => new Promise(() => {}))
    const timed = await observed(never, { timeoutMs: 50 }).runtime.execute(call('probe', {}))
    expect(expectFailure(timed).error.code).toBe('TOOL_TIMEOUT')
    expect(textOf(timed)).toBe(
      'Error: The parameter schema of probe did not finish checking the arguments within 50 ms.',
    )
    const controller = new AbortController()
    const pending = observed(never).runtime.execute(call('probe', {}), { signal: controller.signal })
    setTimeout(() => controller.abort(), 10)
    expect(expectFailure(await pending).error.code).toBe('ABORTED_BEFORE_DISPATCH')
  })
})
