import type { JsonSchemaObject } from '../../json-schema/node.js'
import { closeObject } from '../schema/close-object.js'
import { describeConstraint } from '../schema/keyword-rules.js'
import { normalizeSchema } from '../schema/normalize-schema.js'
import { typeNames } from '../schema/null-handling.js'
import { orderKeywords } from '../schema/order-keywords.js'
import { projectTree } from '../schema/project-tree.js'
import { ProjectionContext } from '../schema/projection-context.js'
import { isSchemaObject } from '../schema/subschemas.js'
import { ANTHROPIC_LOOSE_KEYWORDS, ANTHROPIC_STRICT_KEYWORDS } from './anthropic-rules.js'

export interface AnthropicSchemaProjection {
  readonly schema: JsonSchemaObject & { type: 'object' }
  readonly context: ProjectionContext
  /** Optional properties (for the request-wide strict budget). */
  readonly optionalParameters: number
  /** Properties typed as a union: `anyOf` or a type array (for the request-wide strict budget). */
  readonly unionParameters: number
}

/** Projects one tool's parameters for Anthropic's `input_schema`, strict or not. */
export function projectAnthropicSchema(
  parameters: JsonSchemaObject,
  options: { readonly strict: boolean; readonly describeDropped: boolean },
): AnthropicSchemaProjection {
  const context = new ProjectionContext()
  const { root, defs, cyclic } = normalizeSchema(parameters, context)
  const table = options.strict ? ANTHROPIC_STRICT_KEYWORDS : ANTHROPIC_LOOSE_KEYWORDS
  if (options.strict && cyclic.size > 0) context.refuse('', `recursive definitions: ${[...cyclic].join(', ')}`)
  let optionalParameters = 0
  let unionParameters = 0

  const strictNode = (node: JsonSchemaObject, path: string): JsonSchemaObject => {
    let out = node
    const literal = out.enum !== undefined || out.const !== undefined
    if (
      out.type === undefined &&
      !literal &&
      out.anyOf === undefined &&
      out.allOf === undefined &&
      out.$ref === undefined
    ) {
      context.refuse(path, 'strict mode needs a type')
    }
    if (Array.isArray(out.enum) && out.enum.some((value) => value !== null && typeof value === 'object')) {
      context.refuse(path, 'enum values must be primitives')
    }
    if (Array.isArray(out.allOf) && out.allOf.some((branch) => isSchemaObject(branch) && branch.$ref !== undefined)) {
      context.refuse(path, 'allOf with $ref is not supported')
    }
    if (typeof out.minItems === 'number' && out.minItems > 1) {
      const { minItems, ...rest } = out
      context.change(path, 'minItems', 'dropped', 'only 0 or 1 is supported')
      out = options.describeDropped ? describeConstraint(rest, 'minItems', minItems) : rest
    }
    if (Array.isArray(out.items)) context.refuse(path, 'tuple items have no strict form')
    out = closeObject(out, path, context)
    if (isSchemaObject(out.properties)) {
      const required = new Set(out.required ?? [])
      for (const [name, child] of Object.entries(out.properties)) {
        if (!required.has(name)) optionalParameters++
        if (isSchemaObject(child) && (child.anyOf !== undefined || typeNames(child.type).length > 1)) unionParameters++
      }
    }
    return out
  }

  const schema = projectTree(root, defs, {
    table,
    context,
    describeDropped: options.describeDropped,
    refuseBooleans: options.strict,
    refine: options.strict ? strictNode : (node) => node,
  })
  return {
    schema: orderKeywords(schema) as JsonSchemaObject & { type: 'object' },
    context,
    optionalParameters,
    unionParameters,
  }
}
