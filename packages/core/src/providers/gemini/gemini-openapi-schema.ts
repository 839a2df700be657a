import type { JsonValue } from '../../json-schema/json-value.js'
import type { JsonSchemaNode, JsonSchemaObject, JsonSchemaTypeName } from '../../json-schema/node.js'
import { applyKeywordTable, describeConstraint } from '../schema/keyword-rules.js'
import { normalizeSchema } from '../schema/normalize-schema.js'
import { typeNames } from '../schema/null-handling.js'
import { orderKeywords } from '../schema/order-keywords.js'
import { ProjectionContext, pointer } from '../schema/projection-context.js'
import { inlinedSize, inlineRefs } from '../schema/resolve-refs.js'
import { isSchemaObject, mapSubschemas } from '../schema/subschemas.js'
import { GEMINI_FORMATS, GEMINI_OPENAPI_KEYWORDS, GEMINI_TYPES } from './gemini-rules.js'

/** A Gemini `Schema` (OpenAPI 3.0 subset). */
export interface GeminiSchema {
  type?: (typeof GEMINI_TYPES)[JsonSchemaTypeName]
  nullable?: boolean
  properties?: Record<string, GeminiSchema>
  items?: GeminiSchema
  anyOf?: GeminiSchema[]
  enum?: string[]
  required?: string[]
  [keyword: string]: unknown
}

export interface GeminiOpenApiProjection {
  /** Undefined for a tool without parameters: Gemini wants the field left out rather than an empty object. */
  readonly schema: GeminiSchema | undefined
  readonly context: ProjectionContext
}

const WRAPPER_KEYWORDS = new Set(['anyOf', 'description', 'title', 'nullable'])

/** Most schema nodes inlining `$defs` may build; past it the tool goes as `parametersJsonSchema`, `$defs` kept. */
export const MAX_INLINED_NODES = 20_000

/** Projects one tool's parameters to Gemini's `parameters` field. Check `context.faithful`. */
export function projectGeminiOpenApiSchema(
  parameters: JsonSchemaObject,
  options: { readonly describeDropped: boolean },
): GeminiOpenApiProjection {
  const context = new ProjectionContext()
  const resolved = normalizeSchema(parameters, context)
  const size = inlinedSize(resolved)
  if (Number.isFinite(size) && size > MAX_INLINED_NODES) {
    context.refuse('', `inlining its $defs would build ${size} schema nodes, over ${MAX_INLINED_NODES}`)
    return { schema: undefined, context }
  }
  const root = inlineRefs(resolved)
  if (root === undefined) {
    context.refuse('', `recursive definitions cannot be inlined: ${[...resolved.cyclic].join(', ')}`)
    return { schema: undefined, context }
  }
  if (Object.keys(root.properties ?? {}).length === 0 && !isOpen(root)) return { schema: undefined, context }

  const project = (node: JsonSchemaNode, path: string): JsonSchemaObject => {
    if (!isSchemaObject(node)) {
      context.refuse(path, 'a boolean schema has no OpenAPI form')
      return {}
    }
    let out = applyKeywordTable(node, GEMINI_OPENAPI_KEYWORDS, path, context, options.describeDropped)
    out = mapSubschemas(out, (child, tokens) =>
      tokens[0] === 'additionalProperties' ? child : project(child, pointer(path, ...tokens)),
    )
    out = literalsAsStringEnum(out, path, context)
    out = nullableFromTypes(out, path, context)
    out = nullableFromUnion(out, path, context)
    out = withoutAdditionalProperties(out, path, context)
    out = supportedFormat(out, path, context, options.describeDropped)
    if (out.type === undefined && out.anyOf === undefined) context.refuse(path, 'every schema needs a type')
    // The API answers "…items: missing field." for an ARRAY without items.
    if (typeNames(out.type).includes('array') && out.items === undefined) context.refuse(path, 'an array needs items')
    return out
  }

  return { schema: withGeminiTypes(orderKeywords(project(root, ''))) as GeminiSchema, context }
}

/** Writes type names as the API's `Type` enum values (`STRING`, `OBJECT`, …), as the official SDK sends them. */
function withGeminiTypes(node: JsonSchemaNode): unknown {
  if (!isSchemaObject(node)) return node
  const out: Record<string, unknown> = mapSubschemas(node, (child) => withGeminiTypes(child) as JsonSchemaNode)
  if (typeof node.type === 'string') out.type = GEMINI_TYPES[node.type]
  return out
}

function isOpen(node: JsonSchemaObject): boolean {
  return node.additionalProperties !== undefined && node.additionalProperties !== false
}

/** `const` and `enum` only exist as string enums; other literals are dropped (still checked locally). */
function literalsAsStringEnum(node: JsonSchemaObject, path: string, context: ProjectionContext): JsonSchemaObject {
  const { const: constant, enum: values, ...rest } = node
  const literals: readonly JsonValue[] | undefined = constant !== undefined ? [constant] : values
  if (literals === undefined) return node
  if (constant !== undefined && values !== undefined) context.change(path, 'const', 'dropped', 'enum kept')
  if (!literals.every((value) => typeof value === 'string')) {
    context.change(path, constant !== undefined ? 'const' : 'enum', 'dropped', 'only string enums are supported')
    return rest
  }
  if (constant !== undefined && values === undefined) context.change(path, 'const', 'rewritten', 'a one-value enum')
  if (rest.type === undefined) context.change(path, 'type', 'added', 'string')
  return {
    ...rest,
    type: rest.type ?? 'string',
    enum: constant !== undefined && values === undefined ? [constant] : literals,
  }
}

/** Type arrays: `null` becomes `nullable`; several other types become an `anyOf` of bare types. */
function nullableFromTypes(node: JsonSchemaObject, path: string, context: ProjectionContext): JsonSchemaObject {
  if (!Array.isArray(node.type)) return node
  const names = typeNames(node.type)
  const others = names.filter((name) => name !== 'null')
  const { type: _type, ...rest } = node
  const out: JsonSchemaObject = names.includes('null') ? { ...rest, nullable: true } : rest
  context.change(path, 'type', 'rewritten', names.includes('null') ? 'null as nullable' : 'type array as anyOf')
  if (others.length === 1) return { ...out, type: others[0] as JsonSchemaTypeName }
  if (Object.keys(out).every((keyword) => WRAPPER_KEYWORDS.has(keyword))) {
    return { ...out, anyOf: others.map((name) => ({ type: name })) }
  }
  context.refuse(path, 'a type array with constraints has no OpenAPI form')
  return out
}

/** An `anyOf` branch that is only `null` becomes `nullable`; a single remaining branch is unwrapped. */
function nullableFromUnion(node: JsonSchemaObject, path: string, context: ProjectionContext): JsonSchemaObject {
  if (!Array.isArray(node.anyOf)) return node
  const isNull = (branch: JsonSchemaNode) =>
    isSchemaObject(branch) && Object.keys(branch).length === 1 && branch.type === 'null'
  const branches = node.anyOf.filter((branch) => !isNull(branch))
  if (branches.length === node.anyOf.length) return node
  context.change(path, 'anyOf', 'rewritten', 'null branch as nullable')
  const out: JsonSchemaObject = { ...node, anyOf: branches, nullable: true }
  const [only] = branches
  if (branches.length !== 1 || !isSchemaObject(only) || !Object.keys(out).every((key) => WRAPPER_KEYWORDS.has(key))) {
    return out
  }
  const { anyOf: _anyOf, ...wrapper } = out
  return { ...only, ...wrapper }
}

/** Gemini has no `additionalProperties`; an object must list its properties. */
function withoutAdditionalProperties(
  node: JsonSchemaObject,
  path: string,
  context: ProjectionContext,
): JsonSchemaObject {
  const { additionalProperties, ...rest } = node
  const isObject = typeNames(node.type).includes('object')
  const listed = Object.keys(node.properties ?? {}).length > 0
  if (isObject && !listed) {
    context.refuse(path, 'an object without listed properties has no OpenAPI form')
    return rest
  }
  const declared = Object.keys(node.properties ?? {})
  const undeclared = (node.required ?? []).filter((name) => !declared.includes(name))
  if (undeclared.length > 0) {
    context.change(path, 'required', 'dropped', `not declared: ${undeclared.join(', ')}`)
    return withoutAdditionalProperties(
      { ...node, required: (node.required ?? []).filter((name) => declared.includes(name)) },
      path,
      context,
    )
  }
  if (additionalProperties === undefined) return node
  if (additionalProperties !== false && additionalProperties !== true) {
    context.refuse(path, 'a map of additional properties has no OpenAPI form')
  } else {
    context.change(path, 'additionalProperties', 'dropped')
  }
  return rest
}

function supportedFormat(
  node: JsonSchemaObject,
  path: string,
  context: ProjectionContext,
  describeDropped: boolean,
): JsonSchemaObject {
  if (node.format === undefined) return node
  const [name] = typeNames(node.type)
  if (name !== undefined && GEMINI_FORMATS[name]?.has(node.format) === true) return node
  const { format, ...rest } = node
  context.change(path, 'format', 'dropped')
  return describeDropped ? describeConstraint(rest, 'format', format) : rest
}
