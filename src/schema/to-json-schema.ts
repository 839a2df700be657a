import type { JsonSchemaNode, JsonSchemaObject } from '../json-schema/node.js'
import { isJsonSchemaSpec, jsonSchemaNodeKey } from './json-schema-spec.js'
import { type EmitContext, keywordRules, type SchemaEntry, type SpecKeyword, specKeywords } from './keyword-rules.js'
import { boundPairs, exclusivePairs, type KindRule, kindRules, schemaKinds } from './kind-rules.js'
import { convertProperties } from './properties.js'
import { copyJsonSchema, usesReferences } from './raw-node.js'
import { SchemaSpecError } from './schema-spec-error.js'
import { childPath } from './spec-path.js'
import { convertStandardSchema, isStandardSchema } from './standard-schema.js'
import { checkSpecValues } from './value-check.js'
import type { ParametersSpec, SchemaKind, ValueSpec } from './value-spec.js'

/** Keys a value spec may carry that are not keywords of its own. */
const structuralKeys: ReadonlySet<string> = new Set(['type', 'nullable'])
const annotationKeywords: readonly SpecKeyword[] = ['title', 'description', 'default']

const misplacedHints: Readonly<Record<string, string>> = {
  required: 'required applies only to a property of an object or of the parameters',
}

function kindOf(spec: Record<string, unknown>, path: string): SchemaKind {
  if ('oneOf' in spec) {
    if ('type' in spec) throw new SchemaSpecError(path, 'a oneOf spec takes no type; each branch has its own')
    return 'oneOf'
  }
  const kind = spec.type
  if (kind === 'oneOf' || typeof kind !== 'string' || !Object.hasOwn(kindRules, kind)) {
    const expected = schemaKinds.filter((name) => name !== 'oneOf').join(', ')
    const found = kind === undefined ? 'no type' : `unknown kind ${JSON.stringify(kind)}`
    throw new SchemaSpecError(path, `${found}; expected type one of ${expected}, or a oneOf spec`)
  }
  return kind as SchemaKind
}

function checkKeys(spec: Record<string, unknown>, kind: SchemaKind, rule: KindRule, path: string): void {
  const allowed: readonly string[] = [...annotationKeywords, ...rule.keywords]
  for (const key of Object.keys(spec)) {
    if (allowed.includes(key) || (structuralKeys.has(key) && !(key === 'type' && kind === 'oneOf'))) continue
    const hint =
      misplacedHints[key] ??
      (specKeywords.includes(key as SpecKeyword)
        ? `${key} does not apply to ${kind === 'oneOf' ? 'a oneOf spec' : `kind ${kind}`}`
        : `unknown keyword ${JSON.stringify(key)}`)
    throw new SchemaSpecError(childPath(path, key), hint)
  }
  if ('nullable' in spec && typeof spec.nullable !== 'boolean') {
    throw new SchemaSpecError(childPath(path, 'nullable'), 'must be true or false')
  }
  if (spec.nullable === true && rule.nullable === 'refused') {
    throw new SchemaSpecError(childPath(path, 'nullable'), `kind ${kind} already admits null`)
  }
}

function checkConstraints(spec: Record<string, unknown>, rule: KindRule, path: string): void {
  for (const key of specKeywords) {
    if (!(key in spec)) continue
    const reason = keywordRules[key].check(spec[key], rule)
    if (reason !== undefined) throw new SchemaSpecError(childPath(path, key), reason)
  }
  for (const { low, high, strict } of boundPairs) {
    const lower = spec[low]
    const upper = spec[high]
    if (typeof lower !== 'number' || typeof upper !== 'number') continue
    if (lower > upper || (strict && lower === upper)) {
      throw new SchemaSpecError(path, `${low} ${lower} leaves no room under ${high} ${upper}`)
    }
  }
  for (const { first, second, reason } of exclusivePairs) {
    if (first in spec && second in spec) throw new SchemaSpecError(path, `${first} and ${second} together: ${reason}`)
  }
}

function withNullable(entries: readonly SchemaEntry[], rule: KindRule): readonly SchemaEntry[] {
  if (rule.nullable === 'type-array') {
    return entries.map(([key, value]): SchemaEntry => {
      if (key === 'type') return ['type', [value, 'null']]
      if (key === 'const') return ['enum', [value, null]]
      if (key === 'enum') return ['enum', (value as unknown[]).includes(null) ? value : [...(value as unknown[]), null]]
      return [key, value]
    })
  }
  const hoisted = new Set(['title', 'description', 'default'])
  const inner = Object.fromEntries(entries.filter(([key]) => !hoisted.has(key)))
  const outer = (key: string) => entries.filter(([entryKey]) => entryKey === key)
  return [...outer('title'), ...outer('description'), ['anyOf', [inner, { type: 'null' }]], ...outer('default')]
}

/** A rule a Standard Schema enforces that its JSON Schema node cannot show, found while converting. */
export interface ProjectionNote {
  /** Spec path of the Standard Schema (`parameters`, `parameters.filter.owner`). */
  readonly path: string
  readonly vendor: string
  /** Where in the library's JSON Schema, and what: `at /properties/to: a refinement (…)`. */
  readonly rule: string
  /** True when the schema is the whole spec converted (`parameters` or `output.schema` itself). */
  readonly root: boolean
}

function convertDslSpec(
  spec: Record<string, unknown>,
  path: string,
  notes: ProjectionNote[] | undefined,
): JsonSchemaObject {
  const kind = kindOf(spec, path)
  const rule: KindRule = kindRules[kind]
  checkKeys(spec, kind, rule, path)
  checkConstraints(spec, rule, path)
  const context: EmitContext = {
    path,
    convertChild: (child, childPath) => convertValue(child, childPath, false, notes),
  }
  const entries: SchemaEntry[] = rule.type === undefined ? [] : [['type', rule.type]]
  for (const key of specKeywords) {
    if (key in spec) entries.push(...keywordRules[key].emit(spec[key], context))
  }
  if (spec.open === true) {
    const closing = entries.findIndex(([key, value]) => key === 'additionalProperties' && value === false)
    if (closing !== -1) entries.splice(closing, 1)
  }
  const node = Object.fromEntries(spec.nullable === true ? withNullable(entries, rule) : entries) as JsonSchemaObject
  checkSpecValues(node, path)
  return node
}

function convertForeign(node: JsonSchemaNode, path: string, root: boolean): JsonSchemaNode {
  if (!root && usesReferences(node)) {
    throw new SchemaSpecError(
      path,
      'a schema using $ref or $defs can only stand at the root of parameters or output (references resolve from the root)',
    )
  }
  return node
}

function convertValue(spec: unknown, path: string, root: boolean, notes: ProjectionNote[] | undefined): JsonSchemaNode {
  if (isJsonSchemaSpec(spec)) return convertForeign(copyJsonSchema(spec[jsonSchemaNodeKey], path), path, root)
  if (isStandardSchema(spec)) {
    const conversion = convertStandardSchema(spec)
    if (!conversion.ok) throw new SchemaSpecError(path, conversion.reason)
    const vendor = spec['~standard'].vendor
    for (const rule of conversion.notes) notes?.push({ path, vendor, rule, root })
    return convertForeign(copyJsonSchema(conversion.node, path), path, root)
  }
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new SchemaSpecError(path, 'must be a schema spec object')
  }
  return convertDslSpec(spec as Record<string, unknown>, path, notes)
}

/**
 * Converts a value spec (DSL, `jsonSchema()` node or Standard Schema) to the canonical JSON Schema node.
 * Deterministic; DSL keys come out in one fixed order whatever order the author wrote them in:
 * `type`, `title`, `description`, `enum`, `const`, string then number constraints, `items` and array constraints,
 * `properties`, `required`, `additionalProperties`, `oneOf` (or `anyOf` for nullable containers), `default`.
 * Throws `SchemaSpecError` naming the path of a malformed part.
 */
export function toJsonSchema(spec: ValueSpec, path = ''): JsonSchemaNode {
  return convertValue(spec, path, true, undefined)
}

/** `toJsonSchema`, also collecting what Standard Schemas in the spec enforce beyond their node into `notes`. */
export function toJsonSchemaNoting(spec: ValueSpec, path: string, notes: ProjectionNote[]): JsonSchemaNode {
  return convertValue(spec, path, true, notes)
}

/**
 * Converts a parameters spec to the object-rooted canonical node:
 * `{ type: 'object', properties, required (declaration order, omitted when empty), additionalProperties: false }`.
 * A raw node or Standard Schema must itself be object-rooted (`type: 'object'`).
 */
export function parametersToJsonSchema(spec: ParametersSpec, path = ''): JsonSchemaObject {
  return convertParameters(spec, path, undefined)
}

/** `parametersToJsonSchema`, also collecting what Standard Schemas in the spec enforce beyond their node. */
export function parametersToJsonSchemaNoting(
  spec: ParametersSpec,
  path: string,
  notes: ProjectionNote[],
): JsonSchemaObject {
  return convertParameters(spec, path, notes)
}

function convertParameters(spec: ParametersSpec, path: string, notes: ProjectionNote[] | undefined): JsonSchemaObject {
  if (isJsonSchemaSpec(spec) || isStandardSchema(spec)) {
    const node = convertValue(spec, path, true, notes)
    if (typeof node !== 'object' || node.type !== 'object') {
      throw new SchemaSpecError(path, 'parameters must be object-rooted: a schema with type "object"')
    }
    return node
  }
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new SchemaSpecError(path, 'must be a record of property specs')
  }
  const { properties, required } = convertProperties(spec, path, (child, childPath) =>
    convertValue(child, childPath, false, notes),
  )
  return required.length > 0
    ? { type: 'object', properties, required, additionalProperties: false }
    : { type: 'object', properties, additionalProperties: false }
}
