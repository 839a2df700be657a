import type { JsonSchemaObject } from '../../json-schema/node.js'
import { type ProjectionContext, pointer } from './projection-context.js'
import { setOwn } from './set-own.js'

/**
 * What a provider does with one keyword. `keep`: sent as is (subschemas are projected too).
 * `drop`: not sent; our validator still enforces it. `refuse`: cannot be dropped without hiding valid
 * values from the model, so the tool must degrade.
 */
export type KeywordRule = 'keep' | 'drop' | 'refuse'

export interface KeywordTable {
  readonly rules: Readonly<Record<string, KeywordRule>>
  /** The rule for a keyword the table does not list. */
  readonly otherwise: KeywordRule
  /** Formats the provider takes; any other `format` is dropped. Absent: every format is kept. */
  readonly formats?: ReadonlySet<string>
}

/** The same rule for a list of keywords: tables are written as three lists. */
export function rulesFor(rule: KeywordRule, keywords: readonly string[]): Record<string, KeywordRule> {
  return Object.fromEntries(keywords.map((keyword) => [keyword, rule]))
}

/** Keywords that only work together with others the providers refuse (conditionals, pattern maps, …). */
export const CONDITIONAL_KEYWORDS = [
  'if',
  'then',
  'else',
  'patternProperties',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
] as const

/**
 * Keywords that narrow the accepted values, as opposed to annotations. Worth describing when dropped,
 * in this order whatever order the schema wrote them in.
 */
export const CONSTRAINT_KEYWORDS: readonly string[] = [
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'const',
  'enum',
  'not',
  'contains',
  'dependentRequired',
  'propertyNames',
]

/**
 * Applies a keyword table to one node (not its children): returns the kept keywords and records the rest.
 * With `describeDropped`, dropped constraints are appended to the node's description so the model still reads them.
 */
export function applyKeywordTable(
  node: JsonSchemaObject,
  table: KeywordTable,
  path: string,
  context: ProjectionContext,
  describeDropped: boolean,
): JsonSchemaObject {
  const kept: Record<string, unknown> = {}
  const described: [number, string][] = []
  for (const [keyword, value] of Object.entries(node)) {
    let rule = table.rules[keyword] ?? table.otherwise
    if (keyword === 'format' && table.formats !== undefined && !table.formats.has(String(value))) rule = 'drop'
    if (rule === 'keep') {
      setOwn(kept, keyword, value)
      continue
    }
    if (rule === 'refuse') context.refuse(pointer(path, keyword), `${keyword} is not supported`)
    else context.change(path, keyword, 'dropped')
    const rank = CONSTRAINT_KEYWORDS.indexOf(keyword)
    if (rank >= 0 && !isUnboundedLimit(value)) described.push([rank, `${keyword}: ${JSON.stringify(value)}`])
  }
  if (describeDropped && described.length > 0) {
    const prefix = typeof kept.description === 'string' ? `${kept.description} ` : ''
    const text = described.sort(([left], [right]) => left - right).map(([, entry]) => entry)
    kept.description = `${prefix}{${text.join(', ')}}`
  }
  return kept as JsonSchemaObject
}

/** Appends one dropped constraint to a node's description, as `applyKeywordTable` writes them. */
export function describeConstraint(node: JsonSchemaObject, keyword: string, value: unknown): JsonSchemaObject {
  if (isUnboundedLimit(value)) return node
  const prefix = typeof node.description === 'string' ? `${node.description} ` : ''
  return { ...node, description: `${prefix}{${keyword}: ${JSON.stringify(value)}}` }
}

/** Bounds at the safe-integer edge (zod's `.int()` emits them) say nothing a model can use. */
function isUnboundedLimit(value: unknown): boolean {
  return typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER
}
