/** A rule a projected tool breaks, with where it breaks it. */
export interface Violation {
  /** JSON pointer into the projected schema (`''` is its root), or the field of the tool. */
  readonly path: string
  readonly rule: string
}

export type SchemaRecord = Record<string, unknown>

const SCHEMA_LISTS = ['anyOf', 'allOf', 'oneOf', 'prefixItems'] as const
const SCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'] as const
const SCHEMA_SINGLES = [
  'items',
  'additionalProperties',
  'not',
  'propertyNames',
  'contains',
  'if',
  'then',
  'else',
] as const

interface Child {
  readonly node: unknown
  readonly tokens: string
  readonly keyword: string
}

/** The direct subschemas of a schema, with the pointer tokens that lead to each. */
export function childSchemas(node: unknown): Child[] {
  if (!isRecord(node)) return []
  const children: Child[] = []
  for (const key of SCHEMA_SINGLES) {
    const child = node[key]
    if (Array.isArray(child))
      for (const [index, item] of child.entries())
        children.push({ node: item, tokens: `/${key}/${index}`, keyword: key })
    else if (child !== undefined) children.push({ node: child, tokens: `/${key}`, keyword: key })
  }
  for (const key of SCHEMA_LISTS) {
    const list = node[key]
    if (Array.isArray(list))
      for (const [index, item] of list.entries())
        children.push({ node: item, tokens: `/${key}/${index}`, keyword: key })
  }
  for (const key of SCHEMA_MAPS) {
    const map = node[key]
    if (!isRecord(map)) continue
    for (const [name, child] of Object.entries(map))
      children.push({ node: child, tokens: `/${key}/${name}`, keyword: key })
  }
  return children
}

/** Visits every schema position (booleans included) with its pointer and the keyword that holds it. */
export function walkSchema(
  node: unknown,
  visit: (node: unknown, path: string, keyword: string | undefined) => void,
  path = '',
  keyword: string | undefined = undefined,
): void {
  visit(node, path, keyword)
  for (const child of childSchemas(node)) walkSchema(child.node, visit, `${path}${child.tokens}`, child.keyword)
}

export function isRecord(value: unknown): value is SchemaRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Local `$ref`s that do not resolve, and whether the `$ref` graph has a cycle. */
export function checkRefs(root: SchemaRecord): { unresolved: string[]; recursive: boolean } {
  const unresolved: string[] = []
  const edges = new Map<string, string[]>()
  walkSchema(root, (node, path) => {
    if (!isRecord(node) || typeof node.$ref !== 'string') return
    if (resolve(root, node.$ref) === undefined) unresolved.push(`${path}: ${node.$ref}`)
    const owner = /^\/\$defs\/[^/]+/.exec(path)?.[0] ?? ''
    edges.set(owner, [...(edges.get(owner) ?? []), node.$ref.slice(1)])
  })
  const reaches = (from: string, target: string, seen: Set<string>): boolean => {
    for (const next of edges.get(from) ?? []) {
      if (next === target) return true
      if (seen.has(next)) continue
      seen.add(next)
      if (reaches(next, target, seen)) return true
    }
    return false
  }
  const recursive = [...edges.keys()].some((owner) => owner !== '' && reaches(owner, owner, new Set()))
  const rootRecursive =
    (edges.get('') ?? []).includes('') || [...edges.values()].some((targets) => targets.includes(''))
  return { unresolved, recursive: recursive || rootRecursive }
}

function resolve(root: SchemaRecord, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined
  let node: unknown = root
  for (const token of ref.slice(1).split('/').slice(1)) {
    if (!isRecord(node)) return undefined
    node = node[token.replaceAll('~1', '/').replaceAll('~0', '~')]
  }
  return node
}
