import { checkRefs, isRecord, type Violation, walkSchema } from './conformance-walk.js'

/**
 * Gemini's published rules for function declarations, checked on what we send (written from the docs, not from the projector).
 *
 * - `name` starts with a letter or `_`, then letters, digits, `_`, `.`, `:` or `-`, at most 64 characters;
 *   `parameters` and `parametersJsonSchema` are exclusive (https://ai.google.dev/api/caching#FunctionDeclaration).
 * - `parameters` is a `Schema` (https://ai.google.dev/api/caching#Schema): only its listed fields; `type` is one
 *   value of the `Type` enum (no type arrays: `nullable` instead); enums are strings; formats per type; an OBJECT
 *   lists its properties and `required` names only listed ones; an ARRAY has `items`; no `$ref`, `$defs`, `$schema`,
 *   `additionalProperties` or `const` (the API answers "Unknown name …: Cannot find field", "items: missing field",
 *   "properties: should be non-empty for OBJECT type").
 * - `parametersJsonSchema` is an object-rooted JSON Schema from the supported subset
 *   (https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support), with local `$ref`s only.
 */
const NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/

const SCHEMA_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
])

const TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL'])

const FORMATS: Readonly<Record<string, ReadonlySet<string>>> = {
  STRING: new Set(['enum', 'date-time']),
  NUMBER: new Set(['float', 'double']),
  INTEGER: new Set(['int32', 'int64']),
}

const JSON_SCHEMA_KEYWORDS = new Set([
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'oneOf',
  'properties',
  'additionalProperties',
  'required',
  'propertyOrdering',
])

export function checkGeminiDeclaration(declaration: unknown): Violation[] {
  if (!isRecord(declaration) || typeof declaration.name !== 'string')
    return [{ path: '', rule: 'a declaration has a name' }]
  const violations: Violation[] = []
  if (!NAME.test(declaration.name))
    violations.push({ path: 'name', rule: 'name must match ^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$' })
  if (declaration.parameters !== undefined && declaration.parametersJsonSchema !== undefined) {
    violations.push({ path: '', rule: 'parameters and parametersJsonSchema are exclusive' })
  }
  if (declaration.parameters !== undefined) violations.push(...checkOpenApiSchema(declaration.parameters))
  if (declaration.parametersJsonSchema !== undefined)
    violations.push(...checkJsonSchema(declaration.parametersJsonSchema))
  return violations
}

function checkOpenApiSchema(root: unknown): Violation[] {
  const violations: Violation[] = []
  if (!isRecord(root) || root.type !== 'OBJECT')
    violations.push({ path: '', rule: 'parameters must be an OBJECT schema' })
  walkSchema(root, (node, path) => {
    if (!isRecord(node)) {
      violations.push({ path, rule: 'every schema is an object' })
      return
    }
    for (const key of Object.keys(node)) {
      if (!SCHEMA_FIELDS.has(key)) violations.push({ path: `${path}/${key}`, rule: `${key} is not a Schema field` })
    }
    const type = node.type
    if (type === undefined && node.anyOf === undefined) violations.push({ path, rule: 'type is required' })
    if (type !== undefined && (typeof type !== 'string' || !TYPES.has(type))) {
      violations.push({ path: `${path}/type`, rule: 'type is one Type enum value' })
    }
    if (typeof node.format === 'string' && FORMATS[String(type)]?.has(node.format) !== true) {
      violations.push({ path: `${path}/format`, rule: `format ${node.format} is not supported for ${String(type)}` })
    }
    if (
      node.enum !== undefined &&
      (type !== 'STRING' || !(node.enum as unknown[]).every((value) => typeof value === 'string'))
    ) {
      violations.push({ path: `${path}/enum`, rule: 'enum is for STRING values' })
    }
    if (type === 'ARRAY' && node.items === undefined) violations.push({ path, rule: 'an ARRAY has items' })
    if (type !== 'OBJECT') return
    const names = isRecord(node.properties) ? Object.keys(node.properties) : []
    if (names.length === 0) violations.push({ path, rule: 'an OBJECT lists its properties' })
    const required = Array.isArray(node.required) ? node.required : []
    for (const name of required) {
      if (!names.includes(name))
        violations.push({ path: `${path}/required`, rule: `required ${name} is not a property` })
    }
  })
  return violations
}

function checkJsonSchema(root: unknown): Violation[] {
  if (!isRecord(root) || root.type !== 'object') return [{ path: '', rule: 'parametersJsonSchema must be type object' }]
  const violations: Violation[] = checkRefs(root).unresolved.map((ref) => ({
    path: ref,
    rule: '$ref must resolve locally',
  }))
  walkSchema(root, (node, path) => {
    if (!isRecord(node)) return
    for (const key of Object.keys(node)) {
      if (!JSON_SCHEMA_KEYWORDS.has(key))
        violations.push({ path: `${path}/${key}`, rule: `${key} is not in the supported subset` })
    }
    if (
      Array.isArray(node.enum) &&
      !node.enum.every((value) => typeof value === 'string' || typeof value === 'number')
    ) {
      violations.push({ path: `${path}/enum`, rule: 'enum values are strings or numbers' })
    }
  })
  return violations
}
