import { compileSchema } from '../json-schema/compile.js'
import type { JsonSchemaObject } from '../json-schema/node.js'

function segmentsOf(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
}

function without(node: unknown, segments: readonly string[], keyword: string): unknown {
  if (typeof node !== 'object' || node === null) return node
  if (segments.length === 0) {
    const { [keyword]: _dropped, ...rest } = node as Record<string, unknown>
    return rest
  }
  const [head, ...tail] = segments as [string, ...string[]]
  if (Array.isArray(node))
    return node.map((item, index) => (String(index) === head ? without(item, tail, keyword) : item))
  const record = node as Record<string, unknown>
  return head in record ? { ...record, [head]: without(record[head], tail, keyword) } : record
}

/**
 * A server's schema as our validator can enforce it: keywords it does not support (or refuses, like a pattern that
 * may backtrack catastrophically) are dropped, so the tool still registers and everything else is still checked
 * locally before the server is called. The server validates the full schema itself.
 */
export function lenientSchema(schema: JsonSchemaObject): { schema: JsonSchemaObject; dropped: readonly string[] } {
  const { unknownKeywords } = compileSchema(schema, { lenient: true })
  let result: unknown = schema
  for (const { path, keyword } of unknownKeywords) result = without(result, segmentsOf(path), keyword)
  return {
    schema: result as JsonSchemaObject,
    dropped: unknownKeywords.map(({ path, keyword }) => `${path || '/'} ${keyword}`),
  }
}
