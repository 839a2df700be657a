import { arrayKeywords } from './array-keywords.js'
import { combinatorKeywords } from './combinator-keywords.js'
import type { KeywordDefinition } from './compile-context.js'
import { expectSchemaMap, expectString } from './keyword-values.js'
import { numberKeywords } from './number-keywords.js'
import { objectKeywords } from './object-keywords.js'
import { stringKeywords } from './string-keywords.js'
import { valueKeywords } from './value-keywords.js'

/** `$schema` values we accept: the draft-07 and 2020-12 dialects (what MCP servers and zod emit). */
const DIALECTS = new Set([
  'http://json-schema.org/draft-07/schema#',
  'http://json-schema.org/draft-07/schema',
  'https://json-schema.org/draft-07/schema#',
  'https://json-schema.org/draft-07/schema',
  'https://json-schema.org/draft/2020-12/schema',
  'https://json-schema.org/draft/2020-12/schema#',
])

const annotation: KeywordDefinition = { appliesTo: 'node' }

const referenceKeywords = {
  $ref: {
    appliesTo: 'any',
    compile: (ref, _schema, context, path) => context.reference(expectString(ref, '$ref', path), path),
  },
  // Read by the reference resolver; only subschemas that some `$ref` reaches are compiled.
  $defs: { appliesTo: 'node', compile: (value, _schema, _context, path) => void expectSchemaMap(value, '$defs', path) },
  definitions: {
    appliesTo: 'node',
    compile: (value, _schema, _context, path) => void expectSchemaMap(value, 'definitions', path),
  },
  $schema: {
    appliesTo: 'node',
    compile(value, _schema, context, path) {
      if (!DIALECTS.has(expectString(value, '$schema', path))) {
        context.unsupported(
          '$schema',
          path,
          `dialect ${JSON.stringify(value)} is not supported; use draft-07 or 2020-12`,
        )
      }
      return undefined
    },
  },
  $id: {
    appliesTo: 'node',
    compile(value, _schema, context, path) {
      const id = expectString(value, '$id', path)
      if (path !== '') context.unsupported('$id', path, 'is only supported at the schema root')
      else if (id.includes('#') && !id.endsWith('#')) context.unsupported('$id', path, 'must not carry a fragment')
      return undefined
    },
  },
} satisfies Record<string, KeywordDefinition>

/**
 * Every keyword the validator knows. `type` and `nullable` are read by the node compiler itself (they choose
 * which per-kind checks run); annotations compile to nothing. Anything missing here is unsupported.
 */
export const keywords = {
  type: { appliesTo: 'node' },
  // OpenAPI 3.0: `nullable: true` adds "null" to `type` (as Ajv does); without `type` it changes nothing.
  nullable: { appliesTo: 'node' },
  ...valueKeywords,
  ...numberKeywords,
  ...stringKeywords,
  ...arrayKeywords,
  ...objectKeywords,
  ...combinatorKeywords,
  ...referenceKeywords,
  title: annotation,
  description: annotation,
  default: annotation,
  examples: annotation,
  $comment: annotation,
  deprecated: annotation,
  readOnly: annotation,
  writeOnly: annotation,
  contentMediaType: annotation,
  contentEncoding: annotation,
} satisfies Record<string, KeywordDefinition>

export type SupportedKeyword = keyof typeof keywords

export function isSupportedKeyword(keyword: string): keyword is SupportedKeyword {
  return Object.hasOwn(keywords, keyword)
}

/** Keywords that add no check of their own: annotations, `$defs`, `$schema`, and in lenient mode unknown ones. */
export function addsNoCheck(keyword: string): boolean {
  return !isSupportedKeyword(keyword) || (keywords[keyword].appliesTo === 'node' && keyword !== 'type')
}
