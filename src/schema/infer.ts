import type { JsonObject, JsonValue } from '../json-schema/json-value.js'
import type { SchemaDepthLimit } from './depth.js'
import type { JsonSchemaSpec } from './json-schema-spec.js'
import type { StandardInput, StandardOutput, StandardSchemaLike } from './standard-schema.js'
import type { OneOfSpec } from './value-spec.js'

type TupleOfLength<Length extends number, Tuple extends unknown[] = []> = Tuple['length'] extends Length
  ? Tuple
  : TupleOfLength<Length, [...Tuple, unknown]>

/** One element per container level still inferred exactly; a container met with an empty budget is `JsonValue`. */
type DepthBudget = TupleOfLength<SchemaDepthLimit>

type Spend<Budget> = Budget extends readonly [unknown, ...infer Rest] ? Rest : never

type Flatten<T> = { [Key in keyof T]: T[Key] } & {}

type WithNullable<Spec, Value> = Spec extends { readonly nullable: true } ? Value | null : Value

type WithLiterals<Spec, Value> = Spec extends { readonly const: infer Const }
  ? Const
  : Spec extends { readonly enum: readonly (infer Member)[] }
    ? Member
    : Value

type InferArray<Spec, Budget> = Budget extends readonly [unknown, ...infer Rest]
  ? Spec extends { readonly items: infer Items }
    ? InferValue<Items, Rest>[]
    : JsonValue[]
  : JsonValue

type InferObject<Spec, Budget> = Budget extends readonly [unknown, ...infer Rest]
  ? Spec extends { readonly properties: infer Properties }
    ? Spec extends { readonly open: true }
      ? Flatten<InferProperties<Properties, Rest> & { [key: string]: JsonValue }>
      : InferProperties<Properties, Rest>
    : Spec extends { readonly additionalProperties: infer Values }
      ? { [key: string]: InferValue<Values, Rest> }
      : JsonObject
  : JsonValue

/** The value type of each kind, looked up by `type`. */
interface KindValues<Spec, Budget> {
  string: string
  number: number
  integer: number
  boolean: boolean
  null: null
  json: JsonValue
  array: InferArray<Spec, Budget>
  object: InferObject<Spec, Budget>
}

/**
 * The value a spec describes. Exact through `SCHEMA_DEPTH_LIMIT` nested containers (arrays and objects; the
 * outermost counts as the first), then `JsonValue`. A spec not known literally infers its widest value (`JsonValue`
 * for the DSL, `unknown` once a Standard Schema may stand there).
 */
export type InferValue<Spec, Budget = DepthBudget> = Spec extends JsonSchemaSpec
  ? JsonValue
  : Spec extends StandardSchemaLike
    ? StandardInput<Spec>
    : Spec extends { readonly oneOf: readonly (infer Branch)[] }
      ? OneOfSpec extends Spec
        ? JsonValue
        : WithNullable<Spec, InferValue<Branch, Budget>>
      : Spec extends { readonly type: infer Kind extends keyof KindValues<unknown, unknown> }
        ? WithNullable<Spec, WithLiterals<Spec, KindValues<Spec, Budget>[Kind]>>
        : never

/** Required, or filled in from its `default` before `execute` runs: either way `execute` always has the key. */
type IsRequired<Spec> = Spec extends { readonly required: true }
  ? true
  : Spec extends { readonly default: JsonValue }
    ? true
    : Spec extends StandardSchemaLike
      ? undefined extends StandardInput<Spec>
        ? false
        : true
      : false

type RequiredKeys<Properties> = {
  [Key in keyof Properties]: IsRequired<Properties[Key]> extends true ? Key : never
}[keyof Properties]

type InferProperties<Properties, Budget, Required extends keyof Properties = RequiredKeys<Properties>> = Flatten<
  { -readonly [Key in Required]: InferValue<Properties[Key], Budget> } & {
    -readonly [Key in Exclude<keyof Properties, Required>]?: Exclude<InferValue<Properties[Key], Budget>, undefined>
  }
>

/**
 * The arguments `execute` receives. The parameters object is the first container level. A Standard Schema given as
 * the whole parameters is run by its library, so `execute` gets its output type (defaults, transforms applied).
 */
export type InferArgs<Parameters> = Parameters extends JsonSchemaSpec
  ? JsonObject
  : Parameters extends StandardSchemaLike
    ? StandardOutput<Parameters>
    : InferProperties<Parameters, Spend<DepthBudget>>
