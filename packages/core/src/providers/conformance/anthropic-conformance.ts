import { checkRefs, isRecord, type Violation, walkSchema } from './conformance-walk.js'

/**
 * Anthropic's published rules for client tools, checked on what we send (written from the docs, not from the projector).
 *
 * - `name` matches `^[a-zA-Z0-9_-]{1,64}$`; `input_schema` is a JSON Schema with `type: "object"` at the root and
 *   no root `oneOf`/`anyOf`/`allOf` (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use).
 * - Strict tool use (https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations):
 *   no numerical constraints, no string length constraints, array `minItems` only 0 or 1, no other array constraints,
 *   objects need `additionalProperties: false`, enums of primitives, formats from a fixed list, no recursive schemas,
 *   no external `$ref`. Per request: at most 20 strict tools, 24 optional parameters and 16 union-typed parameters.
 */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/

const STRICT_FORBIDDEN = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
  'uniqueItems',
  'contains',
  'prefixItems',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'if',
  'then',
  'else',
  'not',
])

const STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
])

export function checkAnthropicTool(tool: unknown): Violation[] {
  if (!isRecord(tool) || typeof tool.name !== 'string') return [{ path: '', rule: 'a tool has a name' }]
  const violations: Violation[] = []
  if (!NAME.test(tool.name)) violations.push({ path: 'name', rule: 'name must match ^[a-zA-Z0-9_-]{1,64}$' })
  const root = tool.input_schema
  if (!isRecord(root) || root.type !== 'object')
    return [...violations, { path: '', rule: 'input_schema must be type object' }]
  for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
    if (root[keyword] !== undefined) violations.push({ path: `/${keyword}`, rule: `no top-level ${keyword}` })
  }
  const refs = checkRefs(root)
  for (const ref of refs.unresolved) violations.push({ path: ref, rule: '$ref must resolve locally' })
  if (tool.strict !== true) return violations
  if (refs.recursive) violations.push({ path: '', rule: 'strict: no recursive schemas' })
  walkSchema(root, (node, path, keyword) => {
    if (typeof node === 'boolean') {
      if (!(keyword === 'additionalProperties' && node === false))
        violations.push({ path, rule: 'strict: no boolean schemas' })
      return
    }
    if (!isRecord(node)) return
    for (const key of Object.keys(node)) {
      if (STRICT_FORBIDDEN.has(key))
        violations.push({ path: `${path}/${key}`, rule: `strict: ${key} is not supported` })
    }
    if (typeof node.minItems === 'number' && node.minItems > 1)
      violations.push({ path, rule: 'strict: minItems only 0 or 1' })
    if (typeof node.format === 'string' && !STRICT_FORMATS.has(node.format)) {
      violations.push({ path: `${path}/format`, rule: `strict: format ${node.format} is not supported` })
    }
    if (Array.isArray(node.enum) && node.enum.some((value) => typeof value === 'object' && value !== null)) {
      violations.push({ path: `${path}/enum`, rule: 'strict: enum values are primitives' })
    }
    const isObject = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'))
    if (isObject && node.additionalProperties !== false) {
      violations.push({ path, rule: 'strict: objects need additionalProperties false' })
    }
  })
  return violations
}

/** The per-request limits of strict tool use, over every strict tool of one request. */
export function checkAnthropicRequest(tools: readonly unknown[]): Violation[] {
  const strict = tools.filter((tool) => isRecord(tool) && tool.strict === true) as Record<string, unknown>[]
  let optional = 0
  let unions = 0
  for (const tool of strict) {
    walkSchema(tool.input_schema, (node) => {
      if (!isRecord(node) || !isRecord(node.properties)) return
      const required = Array.isArray(node.required) ? node.required : []
      for (const [name, property] of Object.entries(node.properties)) {
        if (!required.includes(name)) optional++
        if (isRecord(property) && (property.anyOf !== undefined || Array.isArray(property.type))) unions++
      }
    })
  }
  const violations: Violation[] = []
  if (strict.length > 20) violations.push({ path: '', rule: 'strict: at most 20 strict tools per request' })
  if (optional > 24) violations.push({ path: '', rule: 'strict: at most 24 optional parameters per request' })
  if (unions > 16) violations.push({ path: '', rule: 'strict: at most 16 union-typed parameters per request' })
  return violations
}
