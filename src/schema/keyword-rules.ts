import { enumSizeProblem } from '../json-schema/enum-limit.js'
import { compileLinearPattern } from '../json-schema/linear-regex.js'
import type { JsonSchemaNode } from '../json-schema/node.js'
import { convertProperties } from './properties.js'
import { childPath } from './spec-path.js'

export type SchemaEntry = readonly [keyword: string, value: unknown]

export interface EmitContext {
  readonly path: string
  /** Converts a nested value spec (items, additionalProperties, oneOf branches, properties). */
  readonly convertChild: (spec: unknown, path: string) => JsonSchemaNode
}

/** What a keyword check knows of the spec's kind. */
export interface KindValues {
  /** Whether a value is of the kind. */
  readonly accepts: (value: unknown) => boolean
  /** The kind's values in words, e.g. `a string`. */
  readonly expected: string
}

export interface KeywordRule {
  /** Why the value is malformed, or undefined. */
  readonly check: (value: unknown, kind: KindValues) => string | undefined
  readonly emit: (value: unknown, context: EmitContext) => readonly SchemaEntry[]
}

/** Formats the validator knows; anything else is most likely a typo. */
export const knownFormats: ReadonlySet<string> = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uri-template',
  'uuid',
  'json-pointer',
  'relative-json-pointer',
  'regex',
])

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const text = (value: unknown) => (typeof value === 'string' ? undefined : 'must be a string')
const flag = (value: unknown) => (typeof value === 'boolean' ? undefined : 'must be true or false')
const finite = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a finite number'
const count = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? undefined : 'must be a non-negative integer'
const positive = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? undefined : 'must be a number greater than 0'

function regex(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string'
  const compiled = compileLinearPattern(value)
  if (compiled.ok) return undefined
  if (compiled.kind === 'invalid') return `is not a valid regular expression: ${compiled.reason}`
  return `cannot be checked in linear time (${compiled.reason}); the validator refuses it`
}

function format(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string'
  return knownFormats.has(value) ? undefined : `"${value}" is not a known format (${[...knownFormats].join(', ')})`
}

function enumeration(value: unknown, kind: KindValues): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return 'must be a non-empty array'
  const oversized = enumSizeProblem(value.length)
  if (oversized !== undefined) return oversized
  const wrong = value.findIndex((member) => !kind.accepts(member))
  if (wrong !== -1) return `member ${JSON.stringify(value[wrong])} at index ${wrong} is not ${kind.expected}`
  const seen = new Set<unknown>()
  for (const member of value) {
    if (seen.has(member)) return `member ${JSON.stringify(member)} appears more than once`
    seen.add(member)
  }
  return undefined
}

const constant = (value: unknown, kind: KindValues) =>
  kind.accepts(value) ? undefined : `${JSON.stringify(value)} is not ${kind.expected}`

const specObject = (value: unknown) => (isPlainObject(value) ? undefined : 'must be a schema spec object')

function branches(value: unknown): string | undefined {
  return Array.isArray(value) && value.length > 0 ? undefined : 'must be a non-empty array of schema specs'
}

/** Any value passes here: `default` is checked against the finished node. */
const anything = () => undefined

const same =
  (keyword: string) =>
  (value: unknown): readonly SchemaEntry[] => [[keyword, value]]

const copied =
  (keyword: string) =>
  (value: unknown): readonly SchemaEntry[] => [[keyword, [...(value as readonly unknown[])]]]

/**
 * Every DSL keyword besides `type`, `nullable` and a property's `required`, in canonical emission order:
 * annotations, literals, scalar constraints, array parts, object parts, `oneOf`, and `default` last.
 */
export const keywordRules = {
  title: { check: text, emit: same('title') },
  description: { check: text, emit: same('description') },
  enum: { check: enumeration, emit: copied('enum') },
  const: { check: constant, emit: same('const') },
  minLength: { check: count, emit: same('minLength') },
  maxLength: { check: count, emit: same('maxLength') },
  pattern: { check: regex, emit: same('pattern') },
  format: { check: format, emit: same('format') },
  minimum: { check: finite, emit: same('minimum') },
  exclusiveMinimum: { check: finite, emit: same('exclusiveMinimum') },
  maximum: { check: finite, emit: same('maximum') },
  exclusiveMaximum: { check: finite, emit: same('exclusiveMaximum') },
  multipleOf: { check: positive, emit: same('multipleOf') },
  items: {
    check: anything,
    emit: (value, context) => [['items', context.convertChild(value, childPath(context.path, 'items'))]],
  },
  minItems: { check: count, emit: same('minItems') },
  maxItems: { check: count, emit: same('maxItems') },
  uniqueItems: { check: flag, emit: same('uniqueItems') },
  properties: {
    check: specObject,
    emit: (value, context) => {
      const converted = convertProperties(
        value as Record<string, unknown>,
        childPath(context.path, 'properties'),
        context.convertChild,
      )
      const entries: SchemaEntry[] = [['properties', converted.properties]]
      if (converted.required.length > 0) entries.push(['required', converted.required])
      entries.push(['additionalProperties', false])
      return entries
    },
  },
  additionalProperties: {
    check: anything,
    emit: (value, context) => [
      ['additionalProperties', context.convertChild(value, childPath(context.path, 'additionalProperties'))],
    ],
  },
  // Emits nothing itself: the object's conversion leaves out the `additionalProperties: false` of its properties.
  open: { check: flag, emit: () => [] },
  oneOf: {
    check: branches,
    emit: (value, context) => [
      [
        'oneOf',
        (value as readonly unknown[]).map((branch, index) =>
          context.convertChild(branch, childPath(childPath(context.path, 'oneOf'), index)),
        ),
      ],
    ],
  },
  default: { check: anything, emit: (value) => [['default', structuredClone(value)]] },
} as const satisfies Record<string, KeywordRule>

export type SpecKeyword = keyof typeof keywordRules
export const specKeywords = Object.keys(keywordRules) as readonly SpecKeyword[]
