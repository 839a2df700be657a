import { describe, expectTypeOf, test } from 'vitest'
import * as z from 'zod'
import type { JsonObject, JsonValue } from '../json-schema/json-value.js'
import type { InferArgs, InferValue } from './infer.js'
import { jsonSchema } from './json-schema-spec.js'
import type { ParameterSchemaSpec, ValueSchemaSpec, ValueSpec } from './value-spec.js'

/** Keeps literal types the way `defineTool`'s const type parameters do. */
const spec = <const Spec extends ValueSpec>(value: Spec) => value
const parameters = <const Spec extends ParameterSchemaSpec>(value: Spec) => value

type Levels<Count extends number, Tuple extends unknown[] = []> = Tuple['length'] extends Count
  ? Tuple
  : Levels<Count, [...Tuple, unknown]>
type NestedArraySpec<Depth extends unknown[], Leaf> = Depth extends [unknown, ...infer Rest]
  ? { readonly type: 'array'; readonly items: NestedArraySpec<Rest, Leaf> }
  : Leaf
type NestedArray<Depth extends unknown[], Leaf> = Depth extends [unknown, ...infer Rest]
  ? NestedArray<Rest, Leaf>[]
  : Leaf
type NestedObjectSpec<Depth extends unknown[], Leaf> = Depth extends [unknown, ...infer Rest]
  ? {
      readonly type: 'object'
      readonly properties: { readonly next: NestedObjectSpec<Rest, Leaf> & { required: true } }
    }
  : Leaf
type NestedObject<Depth extends unknown[], Leaf> = Depth extends [unknown, ...infer Rest]
  ? { next: NestedObject<Rest, Leaf> }
  : Leaf
/** What sits `Depth` levels down. expect-type compares deep types only partway, so depth tests look at the leaf. */
type PeelArrays<Value, Depth extends unknown[]> = Depth extends [unknown, ...infer Rest]
  ? Value extends (infer Element)[]
    ? PeelArrays<Element, Rest>
    : 'not an array'
  : Value
type PeelObjects<Value, Depth extends unknown[]> = Depth extends [unknown, ...infer Rest]
  ? Value extends { next: infer Next }
    ? PeelObjects<Next, Rest>
    : 'not an object'
  : Value

describe('InferValue', () => {
  test('scalar kinds', () => {
    expectTypeOf<InferValue<{ type: 'string'; minLength: 1 }>>().toEqualTypeOf<string>()
    expectTypeOf<InferValue<{ type: 'number'; minimum: 0 }>>().toEqualTypeOf<number>()
    expectTypeOf<InferValue<{ type: 'integer' }>>().toEqualTypeOf<number>()
    expectTypeOf<InferValue<{ type: 'boolean' }>>().toEqualTypeOf<boolean>()
    expectTypeOf<InferValue<{ type: 'null' }>>().toEqualTypeOf<null>()
    expectTypeOf<InferValue<{ type: 'json' }>>().toEqualTypeOf<JsonValue>()
  })

  test('enum and const become literals without as const', () => {
    const mode = spec({ type: 'string', enum: ['read', 'write'] })
    expectTypeOf<InferValue<typeof mode>>().toEqualTypeOf<'read' | 'write'>()
    const answer = spec({ type: 'integer', const: 42 })
    expectTypeOf<InferValue<typeof answer>>().toEqualTypeOf<42>()
    const yes = spec({ type: 'boolean', const: true })
    expectTypeOf<InferValue<typeof yes>>().toEqualTypeOf<true>()
  })

  test('nullable adds null', () => {
    const name = spec({ type: 'string', nullable: true })
    expectTypeOf<InferValue<typeof name>>().toEqualTypeOf<string | null>()
    const level = spec({ type: 'string', enum: ['low', 'high'], nullable: true })
    expectTypeOf<InferValue<typeof level>>().toEqualTypeOf<'low' | 'high' | null>()
    const list = spec({ type: 'array', items: { type: 'number' }, nullable: true })
    expectTypeOf<InferValue<typeof list>>().toEqualTypeOf<number[] | null>()
    const notNullable = spec({ type: 'string', nullable: false })
    expectTypeOf<InferValue<typeof notNullable>>().toEqualTypeOf<string>()
  })

  test('arrays, objects and records', () => {
    const list = spec({ type: 'array', items: { type: 'string' } })
    expectTypeOf<InferValue<typeof list>>().toEqualTypeOf<string[]>()
    const anyList = spec({ type: 'array' })
    expectTypeOf<InferValue<typeof anyList>>().toEqualTypeOf<JsonValue[]>()
    const point = spec({
      type: 'object',
      properties: { x: { type: 'number', required: true }, label: { type: 'string' } },
    })
    expectTypeOf<InferValue<typeof point>>().toEqualTypeOf<{ x: number; label?: string }>()
    const counts = spec({ type: 'object', additionalProperties: { type: 'integer' } })
    expectTypeOf<InferValue<typeof counts>>().toEqualTypeOf<{ [key: string]: number }>()
    const anything = spec({ type: 'object' })
    expectTypeOf<InferValue<typeof anything>>().toEqualTypeOf<JsonObject>()
  })

  test('oneOf is the union of its branches', () => {
    const shape = spec({
      oneOf: [
        { type: 'object', properties: { kind: { type: 'string', const: 'circle', required: true } } },
        { type: 'object', properties: { kind: { type: 'string', const: 'square', required: true } } },
        { type: 'null' },
      ],
    })
    expectTypeOf<InferValue<typeof shape>>().toEqualTypeOf<{ kind: 'circle' } | { kind: 'square' } | null>()
    const either = spec({ oneOf: [{ type: 'string' }, { type: 'integer' }], nullable: true })
    expectTypeOf<InferValue<typeof either>>().toEqualTypeOf<string | number | null>()
  })

  test('raw nodes type as JSON values', () => {
    const raw = jsonSchema({ type: 'string' })
    expectTypeOf<InferValue<typeof raw>>().toEqualTypeOf<JsonValue>()
    const list = spec({ type: 'array', items: jsonSchema({ type: 'object' }) })
    expectTypeOf<InferValue<typeof list>>().toEqualTypeOf<JsonValue[]>()
  })

  test('standard schemas type as their input', () => {
    const schema = z.object({ id: z.string(), size: z.number().default(1) })
    expectTypeOf<InferValue<typeof schema>>().toEqualTypeOf<{ id: string; size?: number | undefined }>()
  })

  test('exact through 16 nested containers', () => {
    type Arrays = InferValue<NestedArraySpec<Levels<16>, { type: 'string' }>>
    expectTypeOf<Arrays>().toEqualTypeOf<NestedArray<Levels<16>, string>>()
    expectTypeOf<PeelArrays<Arrays, Levels<15>>>().toEqualTypeOf<string[]>()
    expectTypeOf<PeelArrays<Arrays, Levels<16>>>().toEqualTypeOf<string>()
    type Objects = InferValue<NestedObjectSpec<Levels<16>, { type: 'boolean' }>>
    expectTypeOf<Objects>().toEqualTypeOf<NestedObject<Levels<16>, boolean>>()
    expectTypeOf<PeelObjects<Objects, Levels<15>>>().toEqualTypeOf<{ next: boolean }>()
    expectTypeOf<PeelObjects<Objects, Levels<16>>>().toEqualTypeOf<boolean>()
  })

  test('the 17th nested container widens to JsonValue', () => {
    type Arrays = InferValue<NestedArraySpec<Levels<17>, { type: 'string' }>>
    expectTypeOf<PeelArrays<Arrays, Levels<15>>>().toEqualTypeOf<JsonValue[]>()
    expectTypeOf<PeelArrays<Arrays, Levels<16>>>().toEqualTypeOf<JsonValue>()
    type Objects = InferValue<NestedObjectSpec<Levels<17>, { type: 'boolean' }>>
    expectTypeOf<PeelObjects<Objects, Levels<15>>>().toEqualTypeOf<{ next: JsonValue }>()
    expectTypeOf<PeelObjects<Objects, Levels<16>>>().toEqualTypeOf<JsonValue>()
  })

  test('a spec not known literally infers its widest value, without endless recursion', () => {
    expectTypeOf<InferValue<ValueSchemaSpec>>().toEqualTypeOf<JsonValue>()
    // A Standard Schema may describe anything.
    expectTypeOf<InferValue<ValueSpec>>().toEqualTypeOf<unknown>()
  })

  test('unknown kinds are refused', () => {
    // @ts-expect-error: 'strin' is not a kind
    spec({ type: 'strin' })
    // @ts-expect-error: a oneOf needs an array of specs
    spec({ oneOf: { type: 'string' } })
    // @ts-expect-error: enum members must be of the kind
    spec({ type: 'string', enum: [1, 2] })
  })
})

describe('InferArgs', () => {
  test('required and optional keys', () => {
    const readFile = parameters({
      path: { type: 'string', required: true, description: 'Absolute file path' },
      offset: { type: 'number' },
      limit: { type: 'number', required: false },
    })
    expectTypeOf<InferArgs<typeof readFile>>().toEqualTypeOf<{ path: string; offset?: number; limit?: number }>()
  })

  test('raw parameters are a JSON object', () => {
    const raw = jsonSchema({ type: 'object', properties: { q: { type: 'string' } } })
    expectTypeOf<InferArgs<typeof raw>>().toEqualTypeOf<JsonObject>()
    const required = parameters({ q: { ...jsonSchema({ type: 'string' }), required: true } })
    expectTypeOf<InferArgs<typeof required>>().toEqualTypeOf<{ q: JsonValue }>()
  })

  test('standard schemas as parameters or properties', () => {
    const schema = z.object({ query: z.string(), page: z.number().optional() })
    expectTypeOf<InferArgs<typeof schema>>().toEqualTypeOf<{ query: string; page?: number | undefined }>()
    const mixed = parameters({ query: z.string(), page: z.number().optional() })
    expectTypeOf<InferArgs<typeof mixed>>().toEqualTypeOf<{ query: string; page?: number }>()
  })

  test('the parameters object is the first container level', () => {
    type Deep = InferArgs<{ next: NestedObjectSpec<Levels<15>, { type: 'null' }> & { required: true } }>
    expectTypeOf<PeelObjects<Deep, Levels<16>>>().toEqualTypeOf<null>()
    type Deeper = InferArgs<{ next: NestedObjectSpec<Levels<16>, { type: 'null' }> & { required: true } }>
    expectTypeOf<PeelObjects<Deeper, Levels<15>>>().toEqualTypeOf<{ next: JsonValue }>()
    expectTypeOf<PeelObjects<Deeper, Levels<16>>>().toEqualTypeOf<JsonValue>()
  })

  test('an open object also has any other key, as a JSON value', () => {
    type Open = InferValue<{ type: 'object'; open: true; properties: { a: { type: 'string'; required: true } } }>
    expectTypeOf<Open>().toEqualTypeOf<{ a: string; [key: string]: JsonValue }>()
    type Closed = InferValue<{ type: 'object'; properties: { a: { type: 'string'; required: true } } }>
    expectTypeOf<Closed>().toEqualTypeOf<{ a: string }>()
  })
})
