import { escapePointerToken, unescapePointerToken } from '../../json-schema/json-pointer.js'
import type { JsonSchemaNode, JsonSchemaObject } from '../../json-schema/node.js'
import type { ProjectionContext } from './projection-context.js'
import { setOwn } from './set-own.js'
import { forEachSubschema, isSchemaObject, mapSubschemas } from './subschemas.js'

/**
 * A schema whose every `$ref` points at `#/$defs/<name>`, with only the reachable definitions kept.
 * Draft-07 `definitions`, other local pointers and the root (`#`) are all turned into named definitions.
 */
export interface ResolvedSchema {
  readonly root: JsonSchemaObject
  readonly defs: Readonly<Record<string, JsonSchemaNode>>
  /** Definitions that reach themselves through `$ref`. */
  readonly cyclic: ReadonlySet<string>
}

const DEFS_PREFIX = '#/$defs/'

export function resolveRefs(schema: JsonSchemaObject, context: ProjectionContext): ResolvedSchema {
  const names = new Map<string, string>()
  const targets = new Map<string, JsonSchemaNode>()
  const pending: string[] = []

  const nameFor = (ref: string, path: string): string | undefined => {
    const known = names.get(ref)
    if (known !== undefined) return known
    const target = resolvePointer(schema, ref)
    if (target === undefined) {
      context.refuse(path, `$ref ${JSON.stringify(ref)} does not resolve to a local schema`)
      return undefined
    }
    const name = uniqueName(definitionName(ref), new Set(names.values()))
    names.set(ref, name)
    targets.set(name, target)
    pending.push(name)
    return name
  }

  const rewrite = (node: JsonSchemaNode, path: string): JsonSchemaNode => {
    if (!isSchemaObject(node)) return node
    const { $defs: _defs, definitions: _definitions, ...rest } = node
    let out = mapSubschemas(rest, (child, tokens) => rewrite(child, `${path}/${tokens.join('/')}`))
    if (typeof node.$ref === 'string') {
      const name = nameFor(node.$ref, path)
      const { $ref: _ref, ...siblings } = out
      out = name === undefined ? siblings : { $ref: `${DEFS_PREFIX}${escapePointerToken(name)}`, ...siblings }
    }
    return out
  }

  const root = rewrite(schema, '') as JsonSchemaObject
  const defs: Record<string, JsonSchemaNode> = {}
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    const target = targets.get(name) as JsonSchemaNode
    setOwn(defs, name, rewrite(target, `/$defs/${escapePointerToken(name)}`))
  }
  return { root, defs: sortedByName(defs), cyclic: findCycles(defs) }
}

/** Replaces every `$ref` by its definition (siblings of `$ref` win). Undefined when a cycle forbids it. */
export function inlineRefs(resolved: ResolvedSchema): JsonSchemaObject | undefined {
  if (resolved.cyclic.size > 0) return undefined
  const inline = (node: JsonSchemaNode): JsonSchemaNode => {
    if (!isSchemaObject(node)) return node
    const mapped = mapSubschemas(node, inline)
    if (typeof mapped.$ref !== 'string') return mapped
    const { $ref, ...siblings } = mapped
    const target = inline(resolved.defs[unescapePointerToken($ref.slice(DEFS_PREFIX.length))] ?? true)
    if (Object.keys(siblings).length === 0) return target
    return isSchemaObject(target) ? { ...target, ...siblings } : target ? siblings : false
  }
  return inline(resolved.root) as JsonSchemaObject
}

/**
 * How many schema nodes `inlineRefs` would build, counted without building them: each definition's size once,
 * so a `$ref` fan-out (every level referring to the next twice) costs linear work to measure while its inlined
 * form grows as 2^levels. Infinite when a cycle forbids inlining.
 */
export function inlinedSize(resolved: ResolvedSchema): number {
  if (resolved.cyclic.size > 0) return Number.POSITIVE_INFINITY
  const definitionSizes = new Map<string, number>()
  const sizeOf = (node: JsonSchemaNode): number => {
    if (!isSchemaObject(node)) return 1
    let size = 1
    forEachSubschema(node, (child) => {
      size += sizeOf(child)
    })
    const name = typeof node.$ref === 'string' ? refName(node.$ref) : undefined
    if (name === undefined) return size
    let target = definitionSizes.get(name)
    if (target === undefined) {
      target = sizeOf(resolved.defs[name] ?? true)
      definitionSizes.set(name, target)
    }
    // The reference node merges into its target's root node.
    return size - 1 + target
  }
  return sizeOf(resolved.root)
}

/** The definition name a `$ref` points at, for refs already rewritten by `resolveRefs`. */
export function refName(ref: string): string | undefined {
  return ref.startsWith(DEFS_PREFIX) ? unescapePointerToken(ref.slice(DEFS_PREFIX.length)) : undefined
}

function resolvePointer(root: JsonSchemaObject, ref: string): JsonSchemaNode | undefined {
  if (!ref.startsWith('#')) return undefined
  const tokens = ref.slice(1).split('/').slice(1).map(unescape)
  let node: unknown = root
  for (const token of tokens) {
    if (typeof node !== 'object' || node === null) return undefined
    node = (node as Record<string, unknown>)[decodeURIComponent(token)]
  }
  return typeof node === 'boolean' || isSchemaObject(node) ? node : undefined
}

function definitionName(ref: string): string {
  const match = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref)
  const raw = match?.[1] !== undefined ? unescapePointerToken(decodeURIComponent(match[1])) : ref.slice(1)
  const name = raw.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '')
  return name === '' ? 'root' : name
}

function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base
  let index = 2
  while (taken.has(`${base}_${index}`)) index++
  return `${base}_${index}`
}

function findCycles(defs: Readonly<Record<string, JsonSchemaNode>>): Set<string> {
  const edges = new Map<string, Set<string>>()
  for (const [name, node] of Object.entries(defs)) edges.set(name, collectRefs(node))
  const cyclic = new Set<string>()
  for (const start of edges.keys()) {
    const seen = new Set<string>()
    const stack = [...(edges.get(start) ?? [])]
    while (stack.length > 0) {
      const next = stack.pop() as string
      if (next === start) {
        cyclic.add(start)
        break
      }
      if (seen.has(next)) continue
      seen.add(next)
      stack.push(...(edges.get(next) ?? []))
    }
  }
  return cyclic
}

function collectRefs(node: JsonSchemaNode, into = new Set<string>()): Set<string> {
  if (!isSchemaObject(node)) return into
  const name = typeof node.$ref === 'string' ? refName(node.$ref) : undefined
  if (name !== undefined) into.add(name)
  mapSubschemas(node, (child) => {
    collectRefs(child, into)
    return child
  })
  return into
}

function sortedByName(defs: Record<string, JsonSchemaNode>): Record<string, JsonSchemaNode> {
  return Object.fromEntries(Object.entries(defs).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)))
}
