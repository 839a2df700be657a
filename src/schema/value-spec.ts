import type { JsonValue } from '../json-schema/json-value.js'
import type { JsonSchemaSpec } from './json-schema-spec.js'
import type { StandardSchemaLike } from './standard-schema.js'

/** Text for people and models; never affects validation. */
export interface SpecAnnotations {
  readonly title?: string
  readonly description?: string
}

interface ScalarSpec<Kind extends string, Value> extends SpecAnnotations {
  readonly type: Kind
  readonly enum?: readonly Value[]
  readonly const?: Value
  readonly default?: Value | null
  /** Also accept `null`. */
  readonly nullable?: boolean
}

/** A string value, with its length, pattern and format constraints. */
export interface StringSpec extends ScalarSpec<'string', string> {
  readonly minLength?: number
  readonly maxLength?: number
  /** An ECMA-262 regular expression (unicode mode), unanchored. */
  readonly pattern?: string
  readonly format?: string
}

interface NumericConstraints {
  readonly minimum?: number
  readonly maximum?: number
  readonly exclusiveMinimum?: number
  readonly exclusiveMaximum?: number
  readonly multipleOf?: number
}

/** A number value, with its range constraints. */
export interface NumberSpec extends ScalarSpec<'number', number>, NumericConstraints {}
/** An integer value, with its range constraints. */
export interface IntegerSpec extends ScalarSpec<'integer', number>, NumericConstraints {}
/** A boolean value. */
export interface BooleanSpec extends ScalarSpec<'boolean', boolean> {}

/** The value `null`. */
export interface NullSpec extends SpecAnnotations {
  readonly type: 'null'
  readonly default?: null
}

/** An array value: the spec of its items and its size and uniqueness constraints. */
export interface ArraySpec extends SpecAnnotations {
  readonly type: 'array'
  /** Absent: any JSON value. */
  readonly items?: ValueSpec
  readonly minItems?: number
  readonly maxItems?: number
  readonly uniqueItems?: boolean
  readonly nullable?: boolean
  readonly default?: JsonValue
}

/**
 * Fixed `properties` (closed: a key they do not name is refused, unless `open`), or a record whose every value
 * matches `additionalProperties`. Neither: any JSON object.
 */
export interface ObjectSpec extends SpecAnnotations {
  readonly type: 'object'
  readonly properties?: ParameterSchemaSpec
  readonly additionalProperties?: ValueSpec
  /**
   * Also accept keys `properties` does not name, with any JSON value; they reach `execute` as sent.
   * @default false
   */
  readonly open?: boolean
  readonly nullable?: boolean
  readonly default?: JsonValue
}

/** Any JSON value. Author-only: the model sees an unconstrained schema. */
export interface JsonSpec extends SpecAnnotations {
  readonly type: 'json'
  readonly default?: JsonValue
}

/** Exactly one branch must match. */
export interface OneOfSpec extends SpecAnnotations {
  readonly oneOf: readonly ValueSpec[]
  readonly nullable?: boolean
  readonly default?: JsonValue
}

/** The DSL's own value specs. */
export type ValueSchemaSpec =
  | StringSpec
  | NumberSpec
  | IntegerSpec
  | BooleanSpec
  | NullSpec
  | ArraySpec
  | ObjectSpec
  | JsonSpec
  | OneOfSpec

/** Everything that can stand where a value is described: a DSL spec, a raw `jsonSchema()` node, a Standard Schema. */
export type ValueSpec = ValueSchemaSpec | JsonSchemaSpec | StandardSchemaLike

/** A value spec in an object: optional unless `required: true`. */
export type PropertySpec = ValueSpec & { readonly required?: boolean }

/** Tool parameters: a record of property specs (the root object of the arguments). */
export interface ParameterSchemaSpec {
  readonly [name: string]: PropertySpec
}

/** Everything that can stand where tool parameters are described. */
export type ParametersSpec = ParameterSchemaSpec | JsonSchemaSpec | StandardSchemaLike

/** Every kind of spec; the conversion tables hold one row per kind. */
export type SchemaKind = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object' | 'json' | 'oneOf'
