import type { JsonSchemaNode, JsonSchemaObject, JsonSchemaTypeName } from '../../json-schema/node.js'
import { refName } from './resolve-refs.js'
import { isSchemaObject } from './subschemas.js'

/** Whether `node` admits `null` (looking through `$ref`, `anyOf`, `oneOf`, type arrays, `enum`, `const`). */
export function acceptsNull(
  node: JsonSchemaNode,
  defs: Readonly<Record<string, JsonSchemaNode>>,
  seen: ReadonlySet<string> = new Set(),
): boolean {
  if (typeof node === 'boolean') return node
  if (typeof node.$ref === 'string') {
    const name = refName(node.$ref)
    const target = name === undefined ? undefined : defs[name]
    if (name === undefined || target === undefined || seen.has(name)) return false
    if (!acceptsNull(target, defs, new Set([...seen, name]))) return false
  }
  if (node.const !== undefined && node.const !== null) return false
  if (Array.isArray(node.enum) && !node.enum.includes(null)) return false
  if (node.type !== undefined && !typeNames(node.type).includes('null')) return false
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = node[keyword]
    if (Array.isArray(branches) && !branches.some((branch) => acceptsNull(branch, defs, seen))) return false
  }
  if (Array.isArray(node.allOf) && !node.allOf.every((branch) => acceptsNull(branch, defs, seen))) return false
  return node.not === undefined
}

export function typeNames(type: JsonSchemaObject['type']): readonly JsonSchemaTypeName[] {
  if (type === undefined) return []
  return typeof type === 'string' ? [type] : type
}

/** The same schema admitting `null` too: a type array or enum gains `null`, anything else is wrapped in `anyOf`. */
export function withNull(node: JsonSchemaObject): JsonSchemaObject {
  const names = typeNames(node.type)
  const canExtend = names.length > 0 && node.const === undefined && node.$ref === undefined && node.anyOf === undefined
  const onlyUnion = Object.keys(node).every((keyword) => ['anyOf', 'description', 'title'].includes(keyword))
  if (Array.isArray(node.anyOf) && onlyUnion) return { ...node, anyOf: [...node.anyOf, { type: 'null' }] }
  if (!canExtend) {
    const { description, ...rest } = node
    const wrapped: JsonSchemaObject = { anyOf: [rest, { type: 'null' }] }
    if (description !== undefined) wrapped.description = description
    return wrapped
  }
  const out: JsonSchemaObject = { ...node, type: [...names, 'null'] }
  if (Array.isArray(node.enum)) out.enum = [...node.enum, null]
  return out
}

export function isObjectShape(node: JsonSchemaObject): boolean {
  return typeNames(node.type).includes('object') || (node.type === undefined && isSchemaObject(node.properties))
}
