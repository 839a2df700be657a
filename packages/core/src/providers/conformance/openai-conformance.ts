import { checkRefs, childSchemas, isRecord, type Violation, walkSchema } from './conformance-walk.js'

/**
 * OpenAI's published rules for function tools, checked on what we send. Written from the docs, not from
 * our projector, so a projector bug shows up here.
 *
 * - Names: a-z, A-Z, 0-9, `_` and `-`, at most 64 (https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools).
 * - `parameters` is a JSON Schema object whose root is `type: "object"` and not a union
 *   (https://platform.openai.com/docs/guides/function-calling#defining-functions).
 * - Strict mode (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas):
 *   supported keywords only; every object has `additionalProperties: false` and lists every property in
 *   `required`; formats from a fixed list; at most 5000 properties, 10 levels of nesting, 1000 enum values;
 *   `$ref` only to local definitions.
 */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/

const STRICT_KEYWORDS = new Set([
  'type',
  'description',
  'title',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
])

const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'])

export interface OpenAIToolShape {
  readonly name: string
  readonly parameters: unknown
  readonly strict: boolean | null | undefined
}

/** Reads a chat (`{type, function}`) or Responses (flat) function tool into one shape. */
export function openAIToolShape(tool: unknown): OpenAIToolShape | undefined {
  if (!isRecord(tool) || tool.type !== 'function') return undefined
  const fields = isRecord(tool.function) ? tool.function : tool
  if (typeof fields.name !== 'string') return undefined
  return { name: fields.name, parameters: fields.parameters, strict: fields.strict as boolean | null | undefined }
}

export function checkOpenAITool(tool: unknown): Violation[] {
  const shape = openAIToolShape(tool)
  if (shape === undefined) return [{ path: '', rule: 'a function tool has type "function" and a name' }]
  const violations: Violation[] = []
  if (!NAME.test(shape.name)) violations.push({ path: 'name', rule: 'name must match ^[a-zA-Z0-9_-]{1,64}$' })
  const root = shape.parameters
  if (!isRecord(root) || root.type !== 'object')
    return [...violations, { path: '', rule: 'parameters root must be type object' }]
  for (const keyword of ['anyOf', 'oneOf', 'allOf', 'not', 'enum']) {
    if (root[keyword] !== undefined)
      violations.push({ path: `/${keyword}`, rule: 'parameters root must not be a union' })
  }
  const refs = checkRefs(root)
  for (const ref of refs.unresolved) violations.push({ path: ref, rule: '$ref must resolve locally' })
  if (shape.strict === true) violations.push(...checkStrict(root))
  return violations
}

function checkStrict(root: Record<string, unknown>): Violation[] {
  const violations: Violation[] = []
  let properties = 0
  let enumValues = 0
  walkSchema(root, (node, path, keyword) => {
    if (typeof node === 'boolean') {
      if (!(keyword === 'additionalProperties' && node === false))
        violations.push({ path, rule: 'strict: no boolean schemas' })
      return
    }
    if (!isRecord(node)) return
    for (const key of Object.keys(node)) {
      if (!STRICT_KEYWORDS.has(key))
        violations.push({ path: `${path}/${key}`, rule: `strict: ${key} is not supported` })
    }
    if (node.$defs !== undefined && path !== '') violations.push({ path, rule: 'strict: $defs only at the root' })
    const typed = node.type !== undefined || node.anyOf !== undefined || node.$ref !== undefined
    if (!typed && keyword !== '$defs') violations.push({ path, rule: 'strict: every schema has a type, anyOf or $ref' })
    if (typeof node.format === 'string' && !STRICT_FORMATS.has(node.format)) {
      violations.push({ path: `${path}/format`, rule: `strict: format ${node.format} is not supported` })
    }
    if (Array.isArray(node.items)) violations.push({ path: `${path}/items`, rule: 'strict: items is one schema' })
    const isArray = node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'))
    if (isArray && node.items === undefined) violations.push({ path, rule: 'strict: an array needs items' })
    if (Array.isArray(node.enum)) enumValues += node.enum.length
    const isObject = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'))
    if (!isObject) return
    if (node.additionalProperties !== false)
      violations.push({ path, rule: 'strict: objects need additionalProperties false' })
    const names = isRecord(node.properties) ? Object.keys(node.properties) : []
    properties += names.length
    const required = Array.isArray(node.required) ? node.required : []
    if (names.length !== required.length || names.some((name) => !required.includes(name))) {
      violations.push({ path: `${path}/required`, rule: 'strict: every property is required' })
    }
  })
  if (properties > 5000) violations.push({ path: '', rule: 'strict: at most 5000 properties' })
  if (enumValues > 1000) violations.push({ path: '', rule: 'strict: at most 1000 enum values' })
  if (objectNesting(root) > 10) violations.push({ path: '', rule: 'strict: at most 10 levels of nesting' })
  return violations
}

function objectNesting(node: unknown): number {
  if (!isRecord(node)) return 0
  const deepest = Math.max(0, ...childSchemas(node).map((child) => objectNesting(child.node)))
  const isObject = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'))
  return deepest + (isObject ? 1 : 0)
}
