import type { JsonSchemaObject, JsonSchemaTypeName } from 'qilin-tools/internal/json-schema/node.js'

/**
 * The JSON types a schema node stands for in an SDK: its `type`, or the type its keywords imply when `type` is
 * absent (`properties` an object, `items` an array), as MCP servers often leave it out.
 */
export function inferredTypeNames(schema: JsonSchemaObject): readonly JsonSchemaTypeName[] {
  if (typeof schema.type === 'string') return [schema.type]
  if (Array.isArray(schema.type)) return schema.type as readonly JsonSchemaTypeName[]
  if (schema.properties !== undefined || schema.additionalProperties !== undefined) return ['object']
  if (schema.items !== undefined || schema.prefixItems !== undefined) return ['array']
  return []
}
