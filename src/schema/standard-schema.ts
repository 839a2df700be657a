import { thrownMessage } from '../errors/thrown-message.js'
import { compileSchema } from '../json-schema/compile.js'
import { MAX_ENUM_MEMBERS } from '../json-schema/enum-limit.js'
import type { JsonSchemaNode } from '../json-schema/node.js'
import { unenforcedPattern } from '../json-schema/unenforced-pattern.js'
import { unknownVendorHint, type VendorRules, vendorRules } from './standard-vendors.js'

/**
 * The structural shape of a Standard Schema (https://standardschema.dev), declared here so the package
 * needs no schema library at runtime. `jsonSchema` is the Standard JSON Schema converter, when the library has one.
 */
export interface StandardSchemaLike<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate?: ((value: unknown) => StandardResult | PromiseLike<StandardResult>) | undefined
    readonly types?: { readonly input: Input; readonly output: Output } | undefined
    readonly jsonSchema?: StandardJsonSchemaConverter | undefined
  }
}

/** What `~standard.validate` answers: the parsed value, or issues. Untrusted: the runtime checks its shape. */
export type StandardResult =
  | { readonly value: unknown; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] }

/** One issue as a Standard Schema library reports it. */
export interface StandardIssue {
  readonly message: string
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined
}

export interface StandardJsonSchemaConverter {
  readonly input: (options: {
    readonly target: string
    readonly libraryOptions?: Record<string, unknown>
  }) => Record<string, unknown>
  readonly output?: (options: {
    readonly target: string
    readonly libraryOptions?: Record<string, unknown>
  }) => Record<string, unknown>
}

type StandardTypes<Schema> = Schema extends { readonly '~standard': { readonly types?: infer Types } }
  ? NonNullable<Types>
  : never

/** The type a Standard Schema accepts: what the model must send. */
export type StandardInput<Schema> = StandardTypes<Schema> extends { readonly input: infer Input } ? Input : unknown

/**
 * The type a Standard Schema parses into (defaults, coercions, transforms applied): what `execute` receives when
 * the schema stands as the whole `parameters`, which the library itself validates.
 */
export type StandardOutput<Schema> = StandardTypes<Schema> extends { readonly output: infer Output } ? Output : unknown

export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false
  const props = (value as { '~standard'?: unknown })['~standard']
  return typeof props === 'object' && props !== null && typeof (props as { vendor?: unknown }).vendor === 'string'
}

export type StandardConversion =
  | {
      readonly ok: true
      readonly node: JsonSchemaNode
      /** Rules the library enforces that the node cannot show the model, each with where it sits. */
      readonly notes: readonly string[]
    }
  | { readonly ok: false; readonly reason: string }

const target = 'draft-2020-12'

/**
 * Converts through the library's own JSON Schema export (Standard JSON Schema, draft 2020-12, input side); the root
 * `$schema` is dropped because the canonical form is always 2020-12. The node is what the model sees; when the schema
 * stands as the whole `parameters`, the library's own `~standard.validate` judges the arguments at call time and its
 * parsed value (defaults, coercions, transforms) is what `execute` receives. What the node cannot show the model
 * (refinements, transforms, morphs) is listed in `notes`, as far as the library tells (`standard-vendors.ts`):
 * zod and arktype through their converter options, valibot through the actions its converter refuses.
 * Values JSON cannot carry (dates, bigints, symbols, functions) make zod and valibot throw: a definition error.
 */
export function convertStandardSchema(schema: StandardSchemaLike): StandardConversion {
  const props = schema['~standard']
  const converter = props.jsonSchema
  const rules: VendorRules | undefined = vendorRules[props.vendor]
  if (typeof converter?.input !== 'function') {
    const hint = rules?.missingConverterHint ?? unknownVendorHint
    return {
      ok: false,
      reason: `the ${props.vendor} schema has no JSON Schema converter (~standard.jsonSchema); ${hint}`,
    }
  }
  const notes = new Set<string>()
  const note = (pointer: string, rule: string) => {
    const text = rule.length > 200 ? `${rule.slice(0, 199)}…` : rule.replace(/\.$/, '')
    if (notes.size < maxNotes) notes.add(`${pointer === '' ? 'at its root' : `at ${pointer}`}: ${text}`)
  }
  let converted: Record<string, unknown>
  try {
    converted = converter.input(
      rules?.observe === undefined ? { target } : { target, libraryOptions: rules.observe(note) },
    )
  } catch (error) {
    const message = thrownMessage(error)
    const lenient =
      rules?.lenient?.applies(message) === true
        ? tryConvert(() => converter.input({ target, libraryOptions: rules.lenient!.options }))
        : undefined
    if (lenient === undefined) {
      return { ok: false, reason: `the ${props.vendor} schema cannot be converted to JSON Schema: ${message}` }
    }
    note('', message)
    converted = lenient
  }
  // The output side shows what the parse changes (arktype morphs, valibot transforms); zod's throws on what it noted.
  if (typeof converter.output === 'function') {
    const output = converter.output
    const options = rules?.observe === undefined ? { target } : { target, libraryOptions: rules.observe(note) }
    try {
      output(options)
    } catch (error) {
      if (rules?.observe === undefined) note('', thrownMessage(error))
    }
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
  const oversized = oversizedEnum(node as JsonSchemaNode)
  if (oversized !== undefined) {
    const where = oversized === '' ? 'at its root' : `at ${oversized}`
    return {
      ok: false,
      reason: `the ${props.vendor} schema has an enum ${where} with more than ${MAX_ENUM_MEMBERS} members`,
    }
  }
  return { ok: true, node: node as JsonSchemaNode, notes: [...notes] }
}

/** A schema with thousands of refinements still gets a short report. */
const maxNotes = 20

function tryConvert(convert: () => Record<string, unknown>): Record<string, unknown> | undefined {
  try {
    return convert()
  } catch {
    return undefined
  }
}

/** Where the lenient compile left an enum unchecked for its size, if anywhere (a broken schema is reported later). */
function oversizedEnum(node: JsonSchemaNode): string | undefined {
  try {
    return compileSchema(node, { lenient: true, codegen: false }).unknownKeywords.find(
      (unknown) => unknown.keyword === 'enum',
    )?.path
  } catch {
    return undefined
  }
}
