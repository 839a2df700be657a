import type { JsonObject, JsonValue } from '../json-schema/json-value.js'
import type { JsonSchemaNode, JsonSchemaObject } from '../json-schema/node.js'
import { normalizeSchema } from './schema/normalize-schema.js'
import { acceptsNull, isObjectShape, typeNames } from './schema/null-handling.js'
import { ProjectionContext } from './schema/projection-context.js'
import { refName } from './schema/resolve-refs.js'
import { setOwn } from './schema/set-own.js'
import { isSchemaObject } from './schema/subschemas.js'

type Defs = Readonly<Record<string, JsonSchemaNode>>

/**
 * Undoes OpenAI strict mode's nullable encoding: wherever `schema` (the tool's own parameters) has an
 * optional property that does not admit `null`, a `null` the model sent there means "absent" and is removed.
 * Nulls where our schema admits them are kept. Everything else is returned as it came; our validator decides.
 */
export function stripStrictNulls(args: JsonValue, schema: JsonSchemaObject): JsonValue {
  const { root, defs } = normalizeSchema(schema, new ProjectionContext())
  return strip(args, root, defs, 0)
}

/** Deep enough for any schema a provider takes; deeper values are returned untouched. */
const MAX_DEPTH = 64

function strip(value: JsonValue, node: JsonSchemaNode, defs: Defs, depth: number): JsonValue {
  const schema = resolve(node, defs)
  if (schema === undefined || depth > MAX_DEPTH || value === null || typeof value !== 'object') return value
  const branch = Array.isArray(schema.anyOf) ? pickBranch(value, schema.anyOf, defs) : undefined
  const current = branch === undefined ? value : strip(value, branch, defs, depth + 1)
  return current !== null && typeof current === 'object' ? stripOwn(current, schema, defs, depth) : current
}

function stripOwn(value: JsonObject | JsonValue[], schema: JsonSchemaObject, defs: Defs, depth: number): JsonValue {
  if (Array.isArray(value)) {
    const items = schema.items
    if (typeof items !== 'boolean' && !isSchemaObject(items)) return value
    return value.map((item) => strip(item, items, defs, depth + 1))
  }
  if (!isSchemaObject(schema.properties)) return value
  const required = new Set(schema.required ?? [])
  const out: JsonObject = {}
  for (const [key, item] of Object.entries(value)) {
    const property = schema.properties[key]
    if (property === undefined) {
      setOwn(out, key, item)
      continue
    }
    if (item === null && !required.has(key) && !acceptsNull(property, defs)) continue
    setOwn(out, key, strip(item, property, defs, depth + 1))
  }
  return out
}

function resolve(node: JsonSchemaNode, defs: Defs, hops = 0): JsonSchemaObject | undefined {
  if (!isSchemaObject(node)) return undefined
  if (typeof node.$ref !== 'string' || hops > MAX_DEPTH) return node
  const name = refName(node.$ref)
  const target = name === undefined ? undefined : defs[name]
  return target === undefined ? undefined : resolve(target, defs, hops + 1)
}

/** The union branch a value was written for: same JSON type, matching literal tags, no unknown keys in a closed object. */
function pickBranch(
  value: JsonObject | JsonValue[],
  branches: readonly JsonSchemaNode[],
  defs: Defs,
): JsonSchemaNode | undefined {
  const candidates = branches.filter((branch) => {
    const schema = resolve(branch, defs)
    if (schema === undefined) return false
    if (Array.isArray(value)) return typeNames(schema.type).includes('array') || schema.items !== undefined
    return isObjectShape(schema)
  })
  if (Array.isArray(value)) return candidates[0]
  const fitting = candidates.filter((branch) => fits(value, resolve(branch, defs) as JsonSchemaObject, defs))
  return fitting[0] ?? candidates[0]
}

function fits(value: JsonObject, schema: JsonSchemaObject, defs: Defs): boolean {
  const properties = schema.properties ?? {}
  for (const [key, item] of Object.entries(value)) {
    const property = properties[key]
    if (property === undefined) {
      if (schema.additionalProperties === false) return false
      continue
    }
    const literal = resolve(property, defs)
    if (literal?.const !== undefined && JSON.stringify(literal.const) !== JSON.stringify(item)) return false
    if (
      Array.isArray(literal?.enum) &&
      !literal.enum.some((option) => JSON.stringify(option) === JSON.stringify(item))
    ) {
      if (!(item === null && !(schema.required ?? []).includes(key))) return false
    }
  }
  return (schema.required ?? []).every((key) => key in value)
}
