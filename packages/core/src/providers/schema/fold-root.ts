import type { JsonSchemaNode, JsonSchemaObject } from '../../json-schema/node.js'
import type { ProjectionContext } from './projection-context.js'
import { refName } from './resolve-refs.js'
import { setOwn } from './set-own.js'
import { isSchemaObject } from './subschemas.js'

type Defs = Readonly<Record<string, JsonSchemaNode>>

/**
 * No provider takes a union or an intersection at the root of tool parameters: the root must be one object.
 * Arguments are always one object and our validator checks the original schema, so the root is folded into
 * the object the model is most likely to fill correctly: a union offers every branch's properties and requires
 * what all branches require; an intersection offers and requires what its branches do.
 */
export function foldRoot(root: JsonSchemaObject, defs: Defs, context: ProjectionContext): JsonSchemaObject {
  let out = root
  if (out.type !== 'object') {
    context.change('', 'type', out.type === undefined ? 'added' : 'rewritten', 'tool arguments are always an object')
    out = { ...out, type: 'object' }
  }
  if (Array.isArray(out.allOf)) out = foldIntersection(out, defs, context)
  if (Array.isArray(out.anyOf)) out = foldUnion(out, defs, context)
  return out
}

function foldUnion(root: JsonSchemaObject, defs: Defs, context: ProjectionContext): JsonSchemaObject {
  const { anyOf = [], ...rest } = root
  const branches = objectBranches(anyOf, defs)
  const shared = branches.length === 0 ? [] : intersect(branches.map((branch) => branch.required ?? []))
  const allClosed = branches.length > 0 && branches.every((branch) => branch.additionalProperties === false)
  context.change('', 'anyOf', 'rewritten', 'root union folded into one object; the union is still checked locally')
  return folded(rest, branches, shared, allClosed)
}

function foldIntersection(root: JsonSchemaObject, defs: Defs, context: ProjectionContext): JsonSchemaObject {
  const { allOf = [], ...rest } = root
  const branches = objectBranches(allOf, defs)
  const required = branches.flatMap((branch) => branch.required ?? [])
  const anyClosed = branches.some((branch) => branch.additionalProperties === false)
  context.change('', 'allOf', 'rewritten', 'root intersection folded into one object; it is still checked locally')
  return folded(rest, branches, required, anyClosed)
}

/** The root with the branches' properties added (a name with different schemas becomes their `anyOf`). */
function folded(
  rest: JsonSchemaObject,
  branches: readonly JsonSchemaObject[],
  required: readonly string[],
  closed: boolean,
): JsonSchemaObject {
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
    if (Object.hasOwn(properties, name)) continue
    setOwn(properties, name, list.length === 1 ? (list[0] as JsonSchemaNode) : { anyOf: list })
  }
  const allRequired = [...new Set([...(rest.required ?? []), ...required])]
  const out: JsonSchemaObject = { ...rest, properties }
  if (allRequired.length > 0) out.required = allRequired
  else delete out.required
  if (closed && rest.additionalProperties === undefined) out.additionalProperties = false
  return out
}

function objectBranches(branches: readonly JsonSchemaNode[], defs: Defs): JsonSchemaObject[] {
  return branches
    .map((branch) => deref(branch, defs))
    .filter((branch): branch is JsonSchemaObject => isSchemaObject(branch) && isObjectShape(branch))
}

function deref(node: JsonSchemaNode, defs: Defs, hops = 0): JsonSchemaNode {
  if (!isSchemaObject(node) || typeof node.$ref !== 'string' || hops > 32) return node
  const name = refName(node.$ref)
  return name === undefined ? node : deref(defs[name] ?? true, defs, hops + 1)
}

function isObjectShape(node: JsonSchemaObject): boolean {
  return node.type === 'object' || (node.type === undefined && node.properties !== undefined)
}

function intersect(lists: readonly (readonly string[])[]): string[] {
  const [first = [], ...others] = lists
  return first.filter((name) => others.every((list) => list.includes(name)))
}
