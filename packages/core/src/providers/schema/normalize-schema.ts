import type { JsonSchemaNode, JsonSchemaObject } from '../../json-schema/node.js'
import { foldRoot } from './fold-root.js'
import { type ProjectionContext, pointer } from './projection-context.js'
import { type ResolvedSchema, resolveRefs } from './resolve-refs.js'
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
 * (our validator still checks exactly one), object `allOf` merged, and the root folded into one object.
 */
export function normalizeSchema(parameters: JsonSchemaObject, context: ProjectionContext): ResolvedSchema {
  const resolved = resolveRefs(stripMetadata(parameters) as JsonSchemaObject, context)
  const defs: Record<string, JsonSchemaNode> = {}
  for (const [name, node] of Object.entries(resolved.defs))
    setOwn(defs, name, normalizeNode(node, `/$defs/${name}`, context))
  const root = foldRoot(normalizeNode(resolved.root, '', context) as JsonSchemaObject, defs, context)
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
