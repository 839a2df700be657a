import type { JsonSchemaTypeName } from '../json-schema/node.js'
import type { KindValues, SpecKeyword } from './keyword-rules.js'
import type { SchemaKind } from './value-spec.js'

/**
 * How `nullable: true` is written: scalars widen their `type` to a type array (`["string", "null"]`);
 * containers and `oneOf` become `anyOf: [<schema>, { type: "null" }]`; `null` and `json` already admit null.
 */
export type NullableStyle = 'type-array' | 'any-of' | 'refused'

export interface KindRule extends KindValues {
  /** The emitted `type`; absent for `json` (any value) and `oneOf` (the branches decide). */
  readonly type: JsonSchemaTypeName | undefined
  /** Keywords besides the annotations (`title`, `description`, `default`) every kind takes. */
  readonly keywords: readonly SpecKeyword[]
  readonly nullable: NullableStyle
}

const isString = (value: unknown) => typeof value === 'string'
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value)
const isInteger = (value: unknown) => Number.isSafeInteger(value)
const isBoolean = (value: unknown) => typeof value === 'boolean'
const isAnything = () => true

const numeric = ['enum', 'const', 'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'multipleOf'] as const

export const kindRules = {
  string: {
    type: 'string',
    keywords: ['enum', 'const', 'minLength', 'maxLength', 'pattern', 'format'],
    accepts: isString,
    expected: 'a string',
    nullable: 'type-array',
  },
  number: { type: 'number', keywords: numeric, accepts: isNumber, expected: 'a finite number', nullable: 'type-array' },
  integer: { type: 'integer', keywords: numeric, accepts: isInteger, expected: 'an integer', nullable: 'type-array' },
  boolean: {
    type: 'boolean',
    keywords: ['enum', 'const'],
    accepts: isBoolean,
    expected: 'true or false',
    nullable: 'type-array',
  },
  null: { type: 'null', keywords: [], accepts: (value) => value === null, expected: 'null', nullable: 'refused' },
  array: {
    type: 'array',
    keywords: ['items', 'minItems', 'maxItems', 'uniqueItems'],
    accepts: Array.isArray,
    expected: 'an array',
    nullable: 'any-of',
  },
  object: {
    type: 'object',
    keywords: ['properties', 'additionalProperties', 'open'],
    accepts: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    expected: 'an object',
    nullable: 'any-of',
  },
  json: { type: undefined, keywords: [], accepts: isAnything, expected: 'a JSON value', nullable: 'refused' },
  oneOf: { type: undefined, keywords: ['oneOf'], accepts: isAnything, expected: 'a JSON value', nullable: 'any-of' },
} as const satisfies Record<SchemaKind, KindRule>

export const schemaKinds = Object.keys(kindRules) as readonly SchemaKind[]

/** Pairs whose lower bound must not pass the upper one; `strict` when equal bounds already leave nothing. */
export const boundPairs = [
  { low: 'minLength', high: 'maxLength', strict: false },
  { low: 'minItems', high: 'maxItems', strict: false },
  { low: 'minimum', high: 'maximum', strict: false },
  { low: 'exclusiveMinimum', high: 'exclusiveMaximum', strict: true },
  { low: 'minimum', high: 'exclusiveMaximum', strict: true },
  { low: 'exclusiveMinimum', high: 'maximum', strict: true },
] as const satisfies readonly { low: SpecKeyword; high: SpecKeyword; strict: boolean }[]

/** Keywords that cannot appear together, with the reason. */
export const exclusivePairs = [
  { first: 'enum', second: 'const', reason: 'use either enum or const' },
  {
    first: 'properties',
    second: 'additionalProperties',
    reason: 'an object has fixed properties or is a record (additionalProperties), not both',
  },
  {
    first: 'open',
    second: 'additionalProperties',
    reason: 'a record (additionalProperties) takes any key already; open applies to an object with properties',
  },
] as const satisfies readonly { first: SpecKeyword; second: SpecKeyword; reason: string }[]
