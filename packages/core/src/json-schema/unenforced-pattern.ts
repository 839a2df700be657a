import { compileSchema } from './compile.js'
import { unescapePointerToken } from './json-pointer.js'
import { linearPatternProblem } from './linear-regex.js'
import type { JsonSchemaNode } from './node.js'

export interface UnenforcedPattern {
  /** The JSON Pointer of the schema holding the pattern, `''` at the root. */
  readonly path: string
  readonly pattern: string
  readonly reason: string
}

/**
 * The first `pattern` in `node` that the validator would leave unchecked (the linear engine cannot run it), or
 * undefined. A tool author's schema with one is refused, since the model would read a rule nobody enforces; a
 * schema that fails to compile for another reason is left for the definition's own compile to report.
 */
export function unenforcedPattern(node: JsonSchemaNode): UnenforcedPattern | undefined {
  let dropped: string | undefined
  try {
    dropped = compileSchema(node, { lenient: true, codegen: false }).unknownKeywords.find(
      (unknown) => unknown.keyword === 'pattern',
    )?.path
  } catch {
    return undefined
  }
  if (dropped === undefined) return undefined
  let holder: unknown = node
  for (const token of dropped.split('/').slice(1)) {
    holder = (holder as Record<string, unknown> | undefined)?.[unescapePointerToken(token)]
  }
  const pattern = (holder as Record<string, unknown> | undefined)?.pattern
  if (typeof pattern !== 'string') return undefined
  return { path: dropped, pattern, reason: linearPatternProblem(pattern) ?? 'the validator does not enforce it' }
}
