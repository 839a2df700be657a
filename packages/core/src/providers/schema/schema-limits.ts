import type { JsonSchemaNode } from '../../json-schema/node.js'
import { isObjectShape } from './null-handling.js'
import { forEachSubschema, isSchemaObject } from './subschemas.js'

export interface SchemaSize {
  /** Properties declared over all objects. */
  readonly properties: number
  /** Deepest chain of nested objects (the root object is 1). */
  readonly nesting: number
  /** Enum values over all enums. */
  readonly enumValues: number
}

/** Measures what providers' size limits count. `$defs` count once, where they are declared. */
export function measureSchema(node: JsonSchemaNode): SchemaSize {
  if (!isSchemaObject(node)) return { properties: 0, nesting: 0, enumValues: 0 }
  let properties = Object.keys(node.properties ?? {}).length
  let enumValues = Array.isArray(node.enum) ? node.enum.length : 0
  let childNesting = 0
  forEachSubschema(node, (child) => {
    const size = measureSchema(child)
    properties += size.properties
    enumValues += size.enumValues
    childNesting = Math.max(childNesting, size.nesting)
  })
  return { properties, enumValues, nesting: childNesting + (isObjectShape(node) ? 1 : 0) }
}
