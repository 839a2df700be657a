import type { JsonSchemaNode, JsonSchemaObject } from '../../json-schema/node.js'
import { type ProjectionContext, pointer } from './projection-context.js'
import { type ResolvedSchema, refName, resolveRefs } from './resolve-refs.js'
import { setOwn } from './set-own.js'
import { isSchemaObject, mapSubschemas } from './subschemas.js'

/** Keywords that name or describe a schema document and constrain nothing; every provider gets them removed. */
const DOCUMENT_METADATA = ['$schema', '$id', '$comment', '$anchor'] as const

const MERGEABLE_ALL_OF_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'description',
  'title',
])

/**
 * The pre-pass every provider shares: refs resolved to named definitions, exact-one `oneOf` sent as `anyOf`
 * (our validator still checks exactly one), object `allOf` merged, and a root union folded into one object
 * (no provider takes a union at the root; arguments are always one object, so our validator decides).
 */
export function normalizeSchema(parameters: JsonSchemaObject, context: ProjectionContext): ResolvedSchema {
  const resolved = resolveRefs(stripMetadata(parameters) as JsonSchemaObject, context)
  const defs: Record<string, JsonSchemaNode> = {}
  for (const [name, node] of Object.entries(resolved.defs))
    setOwn(defs, name, normalizeNode(node, `/$defs/${name}`, context))
  const root = foldRootUnion(normalizeNode(resolved.root, '', context) as JsonSchemaObject, defs, context)
  return { root, defs, cyclic: resolved.cyclic }
}

function stripMetadata(node: JsonSchemaNode): JsonSchemaNode {
  if (!isSchemaObject(node)) return node
  const out = mapSubschemas(node, stripMetadata) as Record<string, unknown>
  for (const keyword of DOCUMENT_METADATA) delete out[keyword]
  return out as JsonSchemaObject
}

function normalizeNode(node: JsonSchemaNode, path: string, context: ProjectionContext): JsonSchemaNode {
  if (!isSchemaObject(node)) return node
  let out = mapSubschemas(node, (child, tokens) => normalizeNode(child, pointer(path, ...tokens), context))
  if (Array.isArray(out.oneOf)) {
    const { oneOf, ...rest } = out
    context.change(path, 'oneOf', 'rewritten', 'sent as anyOf; exactly one branch is still checked locally')
    out =
      rest.anyOf === undefined
        ? { ...rest, anyOf: oneOf }
        : { ...rest, allOf: [...(rest.allOf ?? []), { anyOf: oneOf }] }
  }
  if (Array.isArray(out.allOf)) out = mergeObjectAllOf(out, path, context)
  return withoutVacuousBounds(out, path, context)
}

/**
 * zod's `.int()` bounds integers at ±(2^53 - 1). No model writes such numbers and our validator still holds
 * the bound, so the tokens are saved (every zod-built MCP server carries them).
 */
function withoutVacuousBounds(node: JsonSchemaObject, path: string, context: ProjectionContext): JsonSchemaObject {
  const vacuous = (['minimum', 'maximum'] as const).filter(
    (keyword) => typeof node[keyword] === 'number' && Math.abs(node[keyword]) >= Number.MAX_SAFE_INTEGER,
  )
  if (vacuous.length === 0) return node
  const out: Record<string, unknown> = { ...node }
  for (const keyword of vacuous) {
    delete out[keyword]
    context.change(path, keyword, 'dropped', 'the safe-integer limit')
  }
  return out as JsonSchemaObject
}

/** Merges `allOf` branches that are plain object shapes into their parent; other intersections stay as they are. */
function mergeObjectAllOf(node: JsonSchemaObject, path: string, context: ProjectionContext): JsonSchemaObject {
  const { allOf, ...parent } = node
  const branches = [parent, ...(allOf ?? [])]
  const mergeable = branches.every(
    (branch) =>
      isSchemaObject(branch) &&
      Object.keys(branch).every((keyword) => MERGEABLE_ALL_OF_KEYWORDS.has(keyword)) &&
      (branch.type === undefined || branch.type === 'object'),
  )
  if (!mergeable) return node
  const objects = branches as JsonSchemaObject[]
  const closed = objects.map((branch) => branch.additionalProperties)
  if (closed.some((value) => value !== undefined) && !closed.every((value) => value === false)) return node
  const properties: Record<string, JsonSchemaNode> = {}
  for (const branch of objects) {
    for (const [name, schema] of Object.entries(branch.properties ?? {})) {
      const known = properties[name]
      if (known !== undefined && JSON.stringify(known) !== JSON.stringify(schema)) return node
      setOwn(properties, name, schema)
    }
  }
  const required = [...new Set(objects.flatMap((branch) => branch.required ?? []))]
  context.change(path, 'allOf', 'rewritten', 'object branches merged into one object')
  const merged: JsonSchemaObject = { type: 'object', properties }
  if (parent.description !== undefined) merged.description = parent.description
  if (parent.title !== undefined) merged.title = parent.title
  if (required.length > 0) merged.required = required
  if (closed.every((value) => value === false)) merged.additionalProperties = false
  return merged
}

function foldRootUnion(
  root: JsonSchemaObject,
  defs: Readonly<Record<string, JsonSchemaNode>>,
  context: ProjectionContext,
): JsonSchemaObject {
  let out = root
  if (out.type !== 'object') {
    context.change('', 'type', out.type === undefined ? 'added' : 'rewritten', 'tool arguments are always an object')
    out = { ...out, type: 'object' }
  }
  if (!Array.isArray(out.anyOf)) return out
  const { anyOf, ...rest } = out
  const branches = anyOf
    .map((branch) => deref(branch, defs))
    .filter((branch): branch is JsonSchemaObject => isSchemaObject(branch) && isObjectShape(branch))
  const properties: Record<string, JsonSchemaNode> = { ...(rest.properties ?? {}) }
  const variants = new Map<string, JsonSchemaNode[]>()
  for (const branch of branches) {
    for (const [name, schema] of Object.entries(branch.properties ?? {})) {
      const list = variants.get(name) ?? []
      if (!list.some((known) => JSON.stringify(known) === JSON.stringify(schema))) list.push(schema)
      variants.set(name, list)
    }
  }
  for (const [name, list] of variants) {
    if (name in properties) continue
    setOwn(properties, name, list.length === 1 ? (list[0] as JsonSchemaNode) : { anyOf: list })
  }
  const shared = branches.length === 0 ? [] : intersect(branches.map((branch) => branch.required ?? []))
  const required = [...new Set([...(rest.required ?? []), ...shared])]
  context.change('', 'anyOf', 'rewritten', 'root union folded into one object; the union is still checked locally')
  const folded: JsonSchemaObject = { ...rest, properties }
  if (required.length > 0) folded.required = required
  else delete folded.required
  const allClosed = branches.length > 0 && branches.every((branch) => branch.additionalProperties === false)
  if (!allClosed || rest.additionalProperties !== undefined) return folded
  return { ...folded, additionalProperties: false }
}

function deref(node: JsonSchemaNode, defs: Readonly<Record<string, JsonSchemaNode>>): JsonSchemaNode {
  if (!isSchemaObject(node) || typeof node.$ref !== 'string') return node
  const name = refName(node.$ref)
  return name === undefined ? node : deref(defs[name] ?? true, defs)
}

function isObjectShape(node: JsonSchemaObject): boolean {
  return node.type === 'object' || (node.type === undefined && node.properties !== undefined)
}

function intersect(lists: readonly (readonly string[])[]): string[] {
  const [first = [], ...others] = lists
  return first.filter((name) => others.every((list) => list.includes(name)))
}
