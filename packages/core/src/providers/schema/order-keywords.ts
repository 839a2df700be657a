import type { JsonSchemaNode, JsonSchemaObject } from '../../json-schema/node.js'
import { setOwn } from './set-own.js'
import { isSchemaObject, mapSubschemas } from './subschemas.js'

/** Where each keyword goes in a projected schema; unlisted keywords follow in code-point order. */
const KEYWORD_ORDER = [
  '$ref',
  'type',
  'title',
  'description',
  'nullable',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'propertyOrdering',
  'minProperties',
  'maxProperties',
  'anyOf',
  'allOf',
  'not',
  'default',
  'examples',
  'example',
  '$defs',
] as const

const rank = new Map<string, number>(KEYWORD_ORDER.map((keyword, index) => [keyword, index]))

/**
 * Rewrites keywords in one fixed order at every level, so the same schema built by different code
 * (the DSL, zod, an MCP server) projects to the same bytes. Property order is meaning and is kept.
 */
export function orderKeywords(node: JsonSchemaNode): JsonSchemaNode {
  if (!isSchemaObject(node)) return node
  const mapped = mapSubschemas(node, orderKeywords) as Record<string, unknown>
  const keys = Object.keys(mapped).sort(compareKeywords)
  const out: Record<string, unknown> = {}
  for (const key of keys) setOwn(out, key, mapped[key])
  return out as JsonSchemaObject
}

function compareKeywords(left: string, right: string): number {
  const leftRank = rank.get(left) ?? KEYWORD_ORDER.length
  const rightRank = rank.get(right) ?? KEYWORD_ORDER.length
  if (leftRank !== rightRank) return leftRank - rightRank
  return left < right ? -1 : left > right ? 1 : 0
}
