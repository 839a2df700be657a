import type { JsonSchemaNode, JsonSchemaObject } from '../../json-schema/node.js'
import { applyKeywordTable } from '../schema/keyword-rules.js'
import { normalizeSchema } from '../schema/normalize-schema.js'
import { orderKeywords } from '../schema/order-keywords.js'
import { ProjectionContext, pointer } from '../schema/projection-context.js'
import { isSchemaObject, mapSubschemas } from '../schema/subschemas.js'
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
  const project = (node: JsonSchemaNode, path: string): JsonSchemaNode => {
    if (!isSchemaObject(node)) return node
    let out = applyKeywordTable(node, GEMINI_JSON_SCHEMA_KEYWORDS, path, context, options.describeDropped)
    out = mapSubschemas(out, (child, tokens) => project(child, pointer(path, ...tokens)))
    return supportedLiterals(out, path, context)
  }
  const projectedRoot = project(root, '') as JsonSchemaObject
  const projectedDefs = Object.entries(defs).map(([name, node]) => [name, project(node, `/$defs/${name}`)] as const)
  const schema =
    projectedDefs.length === 0 ? projectedRoot : { ...projectedRoot, $defs: Object.fromEntries(projectedDefs) }
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
