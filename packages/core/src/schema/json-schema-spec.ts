import type { JsonSchemaNode } from '../json-schema/node.js'

/** The key a wrapped raw node hides under; a symbol, so it survives object spread (`{ ...jsonSchema(n), required: true }`). */
export const jsonSchemaNodeKey: unique symbol = Symbol.for('qilin-tools.jsonSchemaNode')

/** A raw JSON Schema node standing where a DSL spec stands. Values it describes type as JSON values. */
export interface JsonSchemaSpec<Node extends JsonSchemaNode = JsonSchemaNode> {
  readonly [jsonSchemaNodeKey]: Node
}

/** Wraps a raw JSON Schema node (wire-level tools, MCP) so it can stand where a DSL spec stands. */
export function jsonSchema<const Node extends JsonSchemaNode>(node: Node): JsonSchemaSpec<Node> {
  return Object.freeze({ [jsonSchemaNodeKey]: node })
}

/** Tells a wrapped raw JSON Schema node from a DSL spec. */
export function isJsonSchemaSpec(value: unknown): value is JsonSchemaSpec {
  return typeof value === 'object' && value !== null && jsonSchemaNodeKey in value
}
