import type { JsonSchemaNode, JsonSchemaObject, JsonSchemaTypeName } from '../../json-schema/node.js'
import { closeObject } from '../schema/close-object.js'
import { normalizeSchema } from '../schema/normalize-schema.js'
import { acceptsNull, typeNames, withNull } from '../schema/null-handling.js'
import { orderKeywords } from '../schema/order-keywords.js'
import { projectTree } from '../schema/project-tree.js'
import { ProjectionContext, pointer } from '../schema/projection-context.js'
import { measureSchema } from '../schema/schema-limits.js'
import { setOwn } from '../schema/set-own.js'
import { isSchemaObject } from '../schema/subschemas.js'
import { OPENAI_LOOSE_KEYWORDS, OPENAI_STRICT_KEYWORDS, OPENAI_STRICT_LIMITS } from './openai-rules.js'

export interface SchemaProjection {
  readonly schema: JsonSchemaObject
  readonly context: ProjectionContext
  /** Optional properties were sent as required-and-nullable. */
  readonly nullsMeanAbsent: boolean
}

/** Projects one tool's parameters for OpenAI, strict or not. Check `context.faithful` before using a strict result. */
export function projectOpenAISchema(
  parameters: JsonSchemaObject,
  options: { readonly strict: boolean; readonly describeDropped: boolean },
): SchemaProjection {
  const context = new ProjectionContext()
  const { root, defs } = normalizeSchema(parameters, context)
  const table = options.strict ? OPENAI_STRICT_KEYWORDS : OPENAI_LOOSE_KEYWORDS
  let nullsMeanAbsent = false

  // `additionalProperties: false` is how strict mode closes an object; `closeObject` judges the others.
  const strictNode = (node: JsonSchemaObject, path: string): JsonSchemaObject => {
    let out = withLiteralType(node, path, context)
    if (out.type === undefined && out.anyOf === undefined && out.$ref === undefined) {
      context.refuse(path, 'strict mode needs a type')
    }
    if (Array.isArray(out.items)) context.refuse(path, 'tuple items have no strict form')
    if (typeNames(out.type).includes('array') && out.items === undefined) context.refuse(path, 'an array needs items')
    const declared = Object.keys(out.properties ?? {})
    const undeclared = (out.required ?? []).filter((name) => !declared.includes(name))
    if (undeclared.length > 0) context.refuse(path, `required but not declared: ${undeclared.join(', ')}`)
    out = closeObject(out, path, context)
    if (isSchemaObject(out.properties)) {
      const required = new Set(out.required ?? [])
      const properties: Record<string, JsonSchemaNode> = {}
      for (const [name, child] of Object.entries(out.properties)) {
        const optional = !required.has(name) && isSchemaObject(child) && !acceptsNull(child, defs)
        if (optional) {
          nullsMeanAbsent = true
          context.change(pointer(path, 'properties', name), 'required', 'rewritten', 'optional sent as nullable')
        }
        setOwn(properties, name, optional ? withNull(child as JsonSchemaObject) : child)
      }
      out = { ...out, properties, required: Object.keys(properties) }
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
  if (options.strict) checkLimits(schema, context)
  return { schema: orderKeywords(schema) as JsonSchemaObject, context, nullsMeanAbsent }
}

/** Gives `enum`/`const` schemas without a type the type of their values, when they share one. */
function withLiteralType(node: JsonSchemaObject, path: string, context: ProjectionContext): JsonSchemaObject {
  if (node.type !== undefined) return node
  const values = node.const !== undefined ? [node.const] : Array.isArray(node.enum) ? node.enum : []
  const types = new Set(values.map(jsonTypeOf))
  const [type] = types
  if (types.size !== 1 || type === undefined) return node
  context.change(path, 'type', 'added', type)
  return { ...node, type }
}

function jsonTypeOf(value: unknown): JsonSchemaTypeName {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value as JsonSchemaTypeName
}

function checkLimits(schema: JsonSchemaObject, context: ProjectionContext): void {
  const size = measureSchema(schema)
  for (const key of ['properties', 'nesting', 'enumValues'] as const) {
    if (size[key] > OPENAI_STRICT_LIMITS[key]) {
      context.refuse('', `${key} ${size[key]} is over the strict limit of ${OPENAI_STRICT_LIMITS[key]}`)
    }
  }
}
