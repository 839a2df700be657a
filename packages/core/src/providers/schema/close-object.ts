import type { JsonSchemaObject } from '../../json-schema/node.js'
import { isObjectShape } from './null-handling.js'
import type { ProjectionContext } from './projection-context.js'

/**
 * Strict modes want every object closed (`additionalProperties: false`). An object that lists its
 * properties and says nothing about others is closed, as the providers' own SDK converters do; an object
 * that allows other properties cannot be closed without hiding valid values, so it is refused.
 */
export function closeObject(node: JsonSchemaObject, path: string, context: ProjectionContext): JsonSchemaObject {
  if (!isObjectShape(node) || node.additionalProperties === false) return node
  if (node.additionalProperties === undefined && node.properties !== undefined) {
    context.change(path, 'additionalProperties', 'added', 'false')
    return { ...node, additionalProperties: false }
  }
  context.refuse(path, 'an object open to other properties cannot be closed')
  return node
}
