import type { JsonSchemaNode } from '../json-schema/node.js'
import { SchemaSpecError } from './schema-spec-error.js'
import { childPath } from './spec-path.js'
import { isStandardSchema, type StandardSchemaLike } from './standard-schema.js'

export interface ConvertedProperties {
  readonly properties: Record<string, JsonSchemaNode>
  /** Declaration order. */
  readonly required: readonly string[]
}

/** A Standard Schema property is optional exactly when the schema accepts `undefined` (e.g. zod `.optional()`). */
function acceptsUndefined(schema: StandardSchemaLike): boolean {
  const validate = (schema['~standard'] as { validate?: unknown }).validate
  if (typeof validate !== 'function') return false
  const result: unknown = validate(undefined)
  return !(result instanceof Promise) && (result as { issues?: unknown }).issues === undefined
}

/** Converts a record of property specs, lifting each `required: true` into the object's `required` list. */
export function convertProperties(
  record: Readonly<Record<string, unknown>>,
  path: string,
  convertChild: (spec: unknown, path: string) => JsonSchemaNode,
): ConvertedProperties {
  const entries: [string, JsonSchemaNode][] = []
  const required: string[] = []
  for (const [name, spec] of Object.entries(record)) {
    const propertyPath = childPath(path, name)
    if (isStandardSchema(spec)) {
      if (!acceptsUndefined(spec)) required.push(name)
      entries.push([name, convertChild(spec, propertyPath)])
      continue
    }
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
      throw new SchemaSpecError(propertyPath, 'must be a schema spec object')
    }
    const { required: isRequired, ...valueSpec } = spec as { required?: unknown }
    if (isRequired !== undefined && typeof isRequired !== 'boolean') {
      throw new SchemaSpecError(childPath(propertyPath, 'required'), 'must be true or false')
    }
    if (isRequired === true) required.push(name)
    entries.push([name, convertChild(valueSpec, propertyPath)])
  }
  return { properties: Object.fromEntries(entries), required }
}
