import type { JsonValue } from './json-value.js'

/** The names the `type` keyword accepts. */
export type JsonSchemaTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object'

/**
 * The canonical schema form. The DSL is converted to it once; the validator, SDK renderers,
 * provider projections and MCP intake read only this.
 */
export type JsonSchemaNode = boolean | JsonSchemaObject

/** A schema object with the keywords the validator, SDK renderers and provider projections read. */
export interface JsonSchemaObject {
  $schema?: string
  $id?: string
  $ref?: string
  $defs?: Record<string, JsonSchemaNode>
  definitions?: Record<string, JsonSchemaNode>
  $comment?: string
  title?: string
  description?: string
  default?: JsonValue
  examples?: readonly JsonValue[]
  deprecated?: boolean
  readOnly?: boolean
  writeOnly?: boolean

  type?: JsonSchemaTypeName | readonly JsonSchemaTypeName[]
  enum?: readonly JsonValue[]
  const?: JsonValue

  anyOf?: readonly JsonSchemaNode[]
  allOf?: readonly JsonSchemaNode[]
  oneOf?: readonly JsonSchemaNode[]
  not?: JsonSchemaNode

  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string

  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  multipleOf?: number

  items?: JsonSchemaNode | readonly JsonSchemaNode[]
  prefixItems?: readonly JsonSchemaNode[]
  additionalItems?: JsonSchemaNode
  minItems?: number
  maxItems?: number
  uniqueItems?: boolean

  properties?: Record<string, JsonSchemaNode>
  required?: readonly string[]
  additionalProperties?: JsonSchemaNode
  propertyNames?: JsonSchemaNode
  minProperties?: number
  maxProperties?: number

  /** Unknown keywords pass through (lenient intake); the validator decides what to do with them. */
  [keyword: string]: unknown
}
