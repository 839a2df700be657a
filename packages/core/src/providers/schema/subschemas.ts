import type { JsonSchemaNode, JsonSchemaObject } from '../../json-schema/node.js'
import { setOwn } from './set-own.js'

/** Keywords whose value is one schema. */
export const SINGLE_SCHEMA_KEYWORDS = [
  'additionalProperties',
  'additionalItems',
  'contains',
  'else',
  'if',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const

/** Keywords whose value is a list of schemas. `items` joins them in its tuple form. */
export const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const

/** Keywords whose value maps names to schemas. */
export const SCHEMA_MAP_KEYWORDS = [
  '$defs',
  'definitions',
  'dependentSchemas',
  'patternProperties',
  'properties',
] as const

export function isSchemaObject(value: unknown): value is JsonSchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Calls `visit` for every direct subschema with the reference tokens that lead to it. */
export function forEachSubschema(
  node: JsonSchemaObject,
  visit: (child: JsonSchemaNode, tokens: readonly string[]) => void,
): void {
  const record = node as Record<string, unknown>
  for (const keyword of SINGLE_SCHEMA_KEYWORDS) {
    const child = record[keyword]
    if (typeof child === 'boolean' || isSchemaObject(child)) visit(child, [keyword])
  }
  const items = record.items
  if (Array.isArray(items))
    for (const [index, child] of items.entries()) visit(child as JsonSchemaNode, ['items', String(index)])
  else if (typeof items === 'boolean' || isSchemaObject(items)) visit(items, ['items'])
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    const list = record[keyword]
    if (!Array.isArray(list)) continue
    for (const [index, child] of list.entries()) visit(child as JsonSchemaNode, [keyword, String(index)])
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const map = record[keyword]
    if (!isSchemaObject(map)) continue
    for (const [name, child] of Object.entries(map)) visit(child as JsonSchemaNode, [keyword, name])
  }
}

/** A shallow copy of `node` whose direct subschemas are replaced by `map(child, tokens)`. Key order is kept. */
export function mapSubschemas(
  node: JsonSchemaObject,
  map: (child: JsonSchemaNode, tokens: readonly string[]) => JsonSchemaNode,
): JsonSchemaObject {
  const out: Record<string, unknown> = {}
  for (const [keyword, value] of Object.entries(node)) {
    setOwn(out, keyword, mapKeyword(keyword, value, map))
  }
  return out as JsonSchemaObject
}

function mapKeyword(
  keyword: string,
  value: unknown,
  map: (child: JsonSchemaNode, tokens: readonly string[]) => JsonSchemaNode,
): unknown {
  const isSchema = (candidate: unknown): candidate is JsonSchemaNode =>
    typeof candidate === 'boolean' || isSchemaObject(candidate)
  if ((SINGLE_SCHEMA_KEYWORDS as readonly string[]).includes(keyword))
    return isSchema(value) ? map(value, [keyword]) : value
  if (keyword === 'items') {
    if (Array.isArray(value)) return value.map((child, index) => map(child as JsonSchemaNode, [keyword, String(index)]))
    return isSchema(value) ? map(value, [keyword]) : value
  }
  if ((SCHEMA_LIST_KEYWORDS as readonly string[]).includes(keyword) && Array.isArray(value)) {
    return value.map((child, index) => map(child as JsonSchemaNode, [keyword, String(index)]))
  }
  if ((SCHEMA_MAP_KEYWORDS as readonly string[]).includes(keyword) && isSchemaObject(value)) {
    const out: Record<string, JsonSchemaNode> = {}
    for (const [name, child] of Object.entries(value)) setOwn(out, name, map(child as JsonSchemaNode, [keyword, name]))
    return out
  }
  return value
}
