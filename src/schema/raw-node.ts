import type { JsonSchemaNode } from '../json-schema/node.js'
import { SchemaSpecError } from './schema-spec-error.js'
import { childPath } from './spec-path.js'

const isPlainPrototype = (prototype: unknown) => prototype === Object.prototype || prototype === null

const isJsonScalar = (value: unknown) =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value))

/** Deeper than any sane schema; stops cyclic objects. */
const maximumNesting = 256

function copyJson(value: unknown, path: string, nesting: number): unknown {
  if (nesting > maximumNesting) throw new SchemaSpecError(path, `nests deeper than ${maximumNesting} levels (a cycle?)`)
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value
    throw new SchemaSpecError(path, `${value} is not a JSON number`)
  }
  if (Array.isArray(value)) {
    // Scalar members are copied as they are, with no path built for each: a million-member enum would build a million.
    const copy = value.slice()
    for (let index = 0; index < copy.length; index++) {
      const item: unknown = copy[index]
      if (!isJsonScalar(item)) copy[index] = copyJson(item, childPath(path, index), nesting + 1)
    }
    return copy
  }
  if (typeof value === 'object' && isPlainPrototype(Object.getPrototypeOf(value))) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, copyJson(item, childPath(path, key), nesting + 1)]),
    )
  }
  throw new SchemaSpecError(path, `a ${typeof value} is not a JSON value`)
}

/** A detached JSON copy of a raw node, so later changes to the author's object change nothing. */
export function copyJsonSchema(node: unknown, path: string): JsonSchemaNode {
  if (typeof node !== 'boolean' && (typeof node !== 'object' || node === null || Array.isArray(node))) {
    throw new SchemaSpecError(path, 'a JSON Schema node must be an object or a boolean')
  }
  return copyJson(node, path, 0) as JsonSchemaNode
}

/** Whether the node refers into a root it may not be the root of. */
export function usesReferences(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(usesReferences)
  if (typeof node !== 'object' || node === null) return false
  const record = node as Record<string, unknown>
  if (typeof record.$ref === 'string' || typeof record.$dynamicRef === 'string' || '$defs' in record) return true
  return Object.values(record).some(usesReferences)
}
