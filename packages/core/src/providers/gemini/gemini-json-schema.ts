import type { JsonSchemaObject } from '../../json-schema/node.js'
import { normalizeSchema } from '../schema/normalize-schema.js'
import { orderKeywords } from '../schema/order-keywords.js'
import { projectTree } from '../schema/project-tree.js'
import { ProjectionContext } from '../schema/projection-context.js'
import { GEMINI_JSON_SCHEMA_KEYWORDS } from './gemini-rules.js'

export interface GeminiJsonSchemaProjection {
  readonly schema: JsonSchemaObject
  readonly context: ProjectionContext
}

/** Projects one tool's parameters to Gemini's `parametersJsonSchema` field (JSON Schema subset; `$ref` and recursion allowed). */
export function projectGeminiJsonSchema(
  parameters: JsonSchemaObject,
  options: { readonly describeDropped: boolean },
): GeminiJsonSchemaProjection {
  const context = new ProjectionContext()
  const { root, defs } = normalizeSchema(parameters, context)
  const schema = projectTree(root, defs, {
    table: GEMINI_JSON_SCHEMA_KEYWORDS,
    context,
    describeDropped: options.describeDropped,
    refuseBooleans: false,
    refine: (node, path) => supportedLiterals(node, path, context),
  })
  return { schema: orderKeywords(schema) as JsonSchemaObject, context }
}

/** `enum` takes strings and numbers; `const` is not in the subset, so a string or number one becomes a one-value enum. */
function supportedLiterals(node: JsonSchemaObject, path: string, context: ProjectionContext): JsonSchemaObject {
  const supported = (value: unknown) => typeof value === 'string' || typeof value === 'number'
  let out = node
  if (out.const !== undefined) {
    const { const: constant, ...rest } = out
    const keep = supported(constant) && rest.enum === undefined
    context.change(path, 'const', keep ? 'rewritten' : 'dropped', keep ? 'a one-value enum' : undefined)
    out = keep ? { ...rest, enum: [constant] } : rest
  }
  if (Array.isArray(out.enum) && !out.enum.every(supported)) {
    const { enum: _enum, ...rest } = out
    context.change(path, 'enum', 'dropped', 'only string and number values are supported')
    out = rest
  }
  return out
}
