import { thrownMessage } from '../errors/thrown-message.js'
import type { JsonSchemaNode } from '../json-schema/node.js'
import { unenforcedPattern } from '../json-schema/unenforced-pattern.js'

/**
 * The structural shape of a Standard Schema (https://standardschema.dev), declared here so the package
 * needs no schema library at runtime. `jsonSchema` is the Standard JSON Schema converter, when the library has one.
 */
export interface StandardSchemaLike<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly types?: { readonly input: Input; readonly output: Output } | undefined
    readonly jsonSchema?: StandardJsonSchemaConverter | undefined
  }
}

export interface StandardJsonSchemaConverter {
  readonly input: (options: { readonly target: string }) => Record<string, unknown>
}

/** The type a Standard Schema accepts. Our validator checks that shape; the library's transforms never run. */
export type StandardInput<Schema> = Schema extends {
  readonly '~standard': { readonly types?: infer Types }
}
  ? NonNullable<Types> extends { readonly input: infer Input }
    ? Input
    : unknown
  : never

export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false
  const props = (value as { '~standard'?: unknown })['~standard']
  return typeof props === 'object' && props !== null && typeof (props as { vendor?: unknown }).vendor === 'string'
}

/** What to tell an author whose library has no Standard JSON Schema converter. */
const missingConverterHints: Readonly<Record<string, string>> = {
  valibot: 'wrap it with toStandardJsonSchema(schema) from @valibot/to-json-schema',
  zod: 'zod 4.2 or later exposes a JSON Schema converter; zod 3 schemas are not supported',
  arktype: 'arktype 2.1 or later exposes a JSON Schema converter',
}

export type StandardConversion =
  | { readonly ok: true; readonly node: JsonSchemaNode }
  | { readonly ok: false; readonly reason: string }

/**
 * Converts through the library's own JSON Schema export (Standard JSON Schema, draft 2020-12, input side); the root
 * `$schema` is dropped because the canonical form is always 2020-12. Only the library's JSON Schema reaches our
 * validator, and the library never runs at call time, so:
 * - transforms, pipes into transforms, zod `.default()`s and arktype morphs describe only their input; `execute`
 *   receives the input (typed by `StandardSchemaV1.InferInput`), never the transformed output;
 * - refinements (zod `.refine`/`.superRefine`, valibot `check`, arktype `.narrow`) are dropped silently;
 * - values JSON cannot carry (dates, bigints, maps, sets, symbols, functions, undefined) make zod and valibot throw,
 *   which surfaces as a definition error; arktype writes `Date` as `{}`, which accepts anything;
 * - zod objects stay open (no `additionalProperties: false`) on the input side, as zod strips unknown keys;
 * - valibot has no converter on its schemas: wrap them with `toStandardJsonSchema` from `@valibot/to-json-schema`.
 */
export function convertStandardSchema(schema: StandardSchemaLike): StandardConversion {
  const props = schema['~standard']
  const converter = props.jsonSchema
  if (typeof converter?.input !== 'function') {
    const hint = missingConverterHints[props.vendor] ?? 'use a library that implements Standard JSON Schema'
    return {
      ok: false,
      reason: `the ${props.vendor} schema has no JSON Schema converter (~standard.jsonSchema); ${hint}`,
    }
  }
  let converted: Record<string, unknown>
  try {
    converted = converter.input({ target: 'draft-2020-12' })
  } catch (error) {
    const message = thrownMessage(error)
    return { ok: false, reason: `the ${props.vendor} schema cannot be converted to JSON Schema: ${message}` }
  }
  const { $schema: _dialect, ...node } = converted
  const unchecked = unenforcedPattern(node as JsonSchemaNode)
  if (unchecked !== undefined) {
    const where = unchecked.path === '' ? 'at its root' : `at ${unchecked.path}`
    return {
      ok: false,
      reason: `the ${props.vendor} schema has a pattern ${where} that cannot be enforced: ${unchecked.reason}`,
    }
  }
  return { ok: true, node: node as JsonSchemaNode }
}
