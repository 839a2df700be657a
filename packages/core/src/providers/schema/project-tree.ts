import type { JsonSchemaNode, JsonSchemaObject } from '../../json-schema/node.js'
import { applyKeywordTable, type KeywordTable } from './keyword-rules.js'
import { type ProjectionContext, pointer } from './projection-context.js'
import { isSchemaObject, mapSubschemas } from './subschemas.js'

export interface TreeProjection {
  readonly table: KeywordTable
  readonly context: ProjectionContext
  readonly describeDropped: boolean
  /** Strict modes have no form for a boolean subschema, except `additionalProperties: false`. */
  readonly refuseBooleans: boolean
  /** The provider's own rules for one node, once its keywords and its subschemas are projected. */
  readonly refine: (node: JsonSchemaObject, path: string) => JsonSchemaObject
}

/**
 * Projects a normalized schema for one provider, top down: every node keeps what the provider's keyword table
 * allows, then the provider refines it. The root and each `$defs` entry go through the same rules; `$defs` stays
 * only when there are any.
 */
export function projectTree(
  root: JsonSchemaObject,
  defs: Readonly<Record<string, JsonSchemaNode>>,
  projection: TreeProjection,
): JsonSchemaObject {
  const { table, context, describeDropped, refuseBooleans, refine } = projection
  const project = (node: JsonSchemaNode, path: string, keyword?: string): JsonSchemaNode => {
    if (!isSchemaObject(node)) {
      if (refuseBooleans && keyword !== 'additionalProperties') {
        context.refuse(path, 'a boolean schema has no strict form')
      }
      return node
    }
    const kept = applyKeywordTable(node, table, path, context, describeDropped)
    return refine(
      mapSubschemas(kept, (child, tokens) => project(child, pointer(path, ...tokens), tokens[0])),
      path,
    )
  }
  const projectedRoot = project(root, '') as JsonSchemaObject
  const projectedDefs = Object.entries(defs).map(([name, node]) => [name, project(node, `/$defs/${name}`)] as const)
  return projectedDefs.length === 0 ? projectedRoot : { ...projectedRoot, $defs: Object.fromEntries(projectedDefs) }
}
