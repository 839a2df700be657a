import type { JsonSchemaNode } from './node.js'

/** A property every branch of a union pins to a distinct constant (`type: {const: "click"}`…). */
export interface Discriminator {
  readonly key: string
  /** Tag value to branch index. */
  readonly branches: ReadonlyMap<unknown, number>
}

function tagOf(schema: JsonSchemaNode | undefined): unknown {
  if (typeof schema !== 'object') return undefined
  if (schema.const !== undefined && typeof schema.const !== 'object') return schema.const
  if (schema.enum?.length === 1 && typeof schema.enum[0] !== 'object') return schema.enum[0]
  return undefined
}

/** A property every branch pins to a distinct constant (`type: {const: "click"}`…): it names the intended branch. */
export function findDiscriminator(value: unknown): Discriminator | undefined {
  const branches = value as readonly JsonSchemaNode[]
  const first = branches[0]
  if (typeof first !== 'object' || first.properties === undefined) return undefined
  for (const key of Object.keys(first.properties)) {
    const tags = new Map<unknown, number>()
    for (const [index, branch] of branches.entries()) {
      const tag = typeof branch === 'object' ? tagOf(branch.properties?.[key]) : undefined
      if (tag === undefined || tags.has(tag)) break
      tags.set(tag, index)
    }
    if (tags.size === branches.length) return { key, branches: tags }
  }
  return undefined
}

function requiresObjectWithKey(branch: JsonSchemaNode, key: string): boolean {
  if (typeof branch !== 'object' || branch.nullable === true || branch.required?.includes(key) !== true) return false
  const type = branch.type
  return type === 'object' || (Array.isArray(type) && type.length === 1 && type[0] === 'object')
}

/**
 * A discriminator that also makes the branches exclusive: every branch only takes objects and requires the tag,
 * so a value matches at most the branch its tag names, and none when the tag is missing or unknown. Then
 * `oneOf` and `anyOf` both mean "the branch the tag names matches".
 */
export function findExclusiveDiscriminator(value: unknown): Discriminator | undefined {
  const discriminator = findDiscriminator(value)
  if (discriminator === undefined) return undefined
  const branches = value as readonly JsonSchemaNode[]
  const exclusive = branches.every((branch) => requiresObjectWithKey(branch, discriminator.key))
  return exclusive ? discriminator : undefined
}

export function taggedBranch(discriminator: Discriminator | undefined, value: unknown): number | undefined {
  if (discriminator === undefined || typeof value !== 'object' || value === null || Array.isArray(value))
    return undefined
  if (!Object.hasOwn(value, discriminator.key)) return undefined
  return discriminator.branches.get((value as Record<string, unknown>)[discriminator.key])
}
