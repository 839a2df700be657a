import { unescapePointerToken } from './json-pointer.js'
import type { JsonSchemaNode } from './node.js'
import { SchemaCompileError } from './schema-compile-error.js'

export interface ResolvedReference {
  readonly schema: unknown
  /** JSON pointer of the target inside the root schema. */
  readonly pointer: string
}

const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/

/**
 * Resolves a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer with `~0`/`~1` and
 * percent-encoding) inside `root`. A reference may also name the root's own `$id` before the `#`.
 */
export function resolveReference(
  root: JsonSchemaNode,
  ref: string,
  rootId: string | undefined,
  path: string,
): ResolvedReference {
  const hashAt = ref.indexOf('#')
  const base = hashAt === -1 ? ref : ref.slice(0, hashAt)
  if (base !== '' && base !== rootId) {
    throw new SchemaCompileError(
      '$ref',
      path,
      `${JSON.stringify(ref)} is not a local reference; only "#..." references are supported`,
    )
  }
  const fragment = hashAt === -1 ? '' : ref.slice(hashAt + 1)
  if (fragment !== '' && !fragment.startsWith('/')) {
    throw new SchemaCompileError(
      '$ref',
      path,
      `${JSON.stringify(ref)} uses an anchor; only JSON pointer references are supported`,
    )
  }
  let decoded: string
  try {
    decoded = decodeURIComponent(fragment)
  } catch {
    throw new SchemaCompileError('$ref', path, `${JSON.stringify(ref)} has invalid percent-encoding`)
  }
  let target: unknown = root
  const tokens = decoded === '' ? [] : decoded.slice(1).split('/')
  for (const token of tokens) {
    const key = unescapePointerToken(token)
    const found =
      typeof target === 'object' &&
      target !== null &&
      (Array.isArray(target) ? ARRAY_INDEX.test(key) && Number(key) < target.length : Object.hasOwn(target, key))
    if (!found) throw new SchemaCompileError('$ref', path, `${JSON.stringify(ref)} does not resolve to a schema`)
    target = (target as Record<string, unknown>)[key]
  }
  return { schema: target, pointer: decoded }
}
