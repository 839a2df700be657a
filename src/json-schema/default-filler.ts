import type { JsonValue } from './json-value.js'
import type { JsonSchemaNode, JsonSchemaObject } from './node.js'

/**
 * Where defaults sit in a schema, found once: per object node, the keys to fill and the members to descend into.
 * Only the shapes the DSL emits are followed (`properties`, `items`, and the `anyOf: [node, { type: 'null' }]` of a
 * nullable container); a default under another applicator (`oneOf`, `$ref`) is shown to the model but not filled.
 */
type DefaultPlan =
  | {
      readonly kind: 'object'
      readonly defaults: readonly (readonly [key: string, value: JsonValue])[]
      readonly members: readonly (readonly [key: string, plan: DefaultPlan])[]
    }
  | { readonly kind: 'items'; readonly plan: DefaultPlan }

/** Fills absent keys with their schema defaults; returns its input when nothing was absent. */
export type DefaultFiller = <Value>(value: Value) => Value

/** Bounds the walk of a hostile (or `$ref`-free but huge) schema; the DSL's own limit is far below. */
const PLAN_DEPTH = 64

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A deep, frozen copy: what every call shares, and none can change. */
function frozenCopy(value: JsonValue): JsonValue {
  return deepFreezeJson(structuredClone(value))
}

function deepFreezeJson(value: JsonValue): JsonValue {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreezeJson(item)
    Object.freeze(value)
  }
  return value
}

/** The node a nullable container wraps (`anyOf: [node, { type: 'null' }]`), or the node itself. */
function unwrapNullable(node: JsonSchemaObject): JsonSchemaObject {
  const branches = node.anyOf
  if (!Array.isArray(branches) || branches.length !== 2) return node
  const [inner, other] = branches as unknown[]
  return isObject(inner) && isObject(other) && other.type === 'null' && Object.keys(other).length === 1
    ? (inner as JsonSchemaObject)
    : node
}

function planFor(node: JsonSchemaNode, depth: number): DefaultPlan | undefined {
  if (!isObject(node) || depth > PLAN_DEPTH) return undefined
  const shape = unwrapNullable(node as JsonSchemaObject)
  if (isObject(shape.items)) {
    const plan = planFor(shape.items as JsonSchemaNode, depth + 1)
    return plan === undefined ? undefined : { kind: 'items', plan }
  }
  if (!isObject(shape.properties)) return undefined
  const defaults: (readonly [string, JsonValue])[] = []
  const members: (readonly [string, DefaultPlan])[] = []
  for (const [key, member] of Object.entries(shape.properties)) {
    if (!isObject(member)) continue
    if (Object.hasOwn(member, 'default')) defaults.push([key, frozenCopy(member.default as JsonValue)])
    const plan = planFor(member as JsonSchemaNode, depth + 1)
    if (plan !== undefined) members.push([key, plan])
  }
  return defaults.length === 0 && members.length === 0 ? undefined : { kind: 'object', defaults, members }
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // An own "__proto__" key must stay a data property, as in JSON.parse output.
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })
}

function fill(value: unknown, plan: DefaultPlan): unknown {
  if (plan.kind === 'items') {
    if (!Array.isArray(value)) return value
    let copy: unknown[] | undefined
    for (let index = 0; index < value.length; index++) {
      const filled = fill(value[index], plan.plan)
      if (filled !== value[index]) {
        copy ??= [...value]
        copy[index] = filled
      }
    }
    return copy === undefined ? value : Object.freeze(copy)
  }
  if (!isObject(value)) return value
  let copy: Record<string, unknown> | undefined
  for (const [key, fallback] of plan.defaults) {
    if (Object.hasOwn(value, key)) continue
    copy ??= { ...value }
    setOwn(copy, key, fallback)
  }
  // After the defaults, so that a defaulted object gets its own members' defaults too.
  for (const [key, member] of plan.members) {
    const source = copy ?? value
    if (!Object.hasOwn(source, key)) continue
    const current = source[key]
    const filled = fill(current, member)
    if (filled === current) continue
    copy ??= { ...value }
    setOwn(copy, key, filled)
  }
  return copy === undefined ? value : Object.freeze(copy)
}

/**
 * The filler for a schema's `default`s, or undefined when it has none to fill (then calls pay nothing). Runs on a
 * value the schema already accepted; copies on write, so the input is never changed, and the filled value is frozen.
 * Defaults are deep-copied once and frozen: every call shares them and none can change another's.
 */
export function defaultFillerFor(node: JsonSchemaNode): DefaultFiller | undefined {
  const plan = planFor(node, 0)
  if (plan === undefined) return undefined
  return <Value>(value: Value) => fill(value, plan) as Value
}
