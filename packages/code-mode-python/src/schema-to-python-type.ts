import { inferredTypeNames } from '@qilin-tools/code-mode/internal/inferred-type-names.js'
import { unescapePointerToken } from 'qilin-tools/internal/json-schema/json-pointer.js'
import type { JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import type { JsonSchemaNode, JsonSchemaObject, JsonSchemaTypeName } from 'qilin-tools/internal/json-schema/node.js'
import type { WorkMeter } from 'qilin-tools/internal/providers/render-budget.js'
import { SCHEMA_DEPTH_LIMIT } from 'qilin-tools/internal/schema/depth.js'
import type { PythonDeclarations, PythonField } from './python-declarations.js'
import { pythonString } from './python-names.js'

/** One root schema (a tool's parameters or output) being converted; `$ref`s resolve against `root`. */
export interface PythonConversion {
  readonly root: JsonSchemaNode
  readonly toolName: string
  readonly declarations: PythonDeclarations
  /** Finished `$ref` types, and `undefined` while one is being converted (a cycle widens to `Any`). */
  readonly references: Map<string, string | undefined>
  /** Pays for every node converted and every type text built; a runaway schema stops the render. */
  readonly meter: WorkMeter
}

type Converter = (schema: JsonSchemaObject, depth: number, hint: string, conversion: PythonConversion) => string

/** Each JSON type name declares its Python answer here; nothing else branches on type names. */
const typeConverters = {
  string: () => 'str',
  number: () => 'float',
  integer: () => 'int',
  boolean: () => 'bool',
  null: () => 'None',
  array: (schema, depth, hint, conversion) => arrayType(schema, depth, hint, conversion),
  object: (schema, depth, hint, conversion) => objectType(schema, depth, hint, conversion),
} satisfies Record<JsonSchemaTypeName, Converter>

const largestExactInteger = 2 ** 53 - 1

export function pythonType(node: JsonSchemaNode, depth: number, hint: string, conversion: PythonConversion): string {
  conversion.meter.spend()
  if (node === true) return 'Any'
  if (node === false) return 'Never'
  if (typeof node.$ref === 'string') return referenceType(node.$ref, depth, conversion)
  if ('const' in node) return literalUnion([node.const as JsonValue])
  if (Array.isArray(node.enum)) {
    conversion.meter.spend(node.enum.length)
    return literalUnion(node.enum)
  }
  const choices = node.oneOf ?? node.anyOf
  const parts = [
    ...ownTypes(node, depth, hint, conversion),
    ...(choices === undefined
      ? []
      : [
          metered(
            union(choices.map((choice) => pythonType(choice, depth, choiceHint(choice, hint), conversion))),
            conversion,
          ),
        ]),
    ...mergedAllOf(node, depth, hint, conversion),
  ]
  // Several parts would be an intersection, which Python cannot spell; the most specific one stands.
  const type = parts.length === 0 ? 'Any' : (parts[parts.length - 1] as string)
  return node.nullable === true ? union([type, 'None']) : type
}

/** A union member is named after its tag (`parent page_id`), the first key holding one constant string. */
function choiceHint(choice: JsonSchemaNode, hint: string): string {
  if (typeof choice !== 'object' || choice.properties === undefined) return `${hint} option`
  for (const property of Object.values(choice.properties)) {
    if (typeof property !== 'object') continue
    const tag = property.const ?? (property.enum?.length === 1 ? property.enum[0] : undefined)
    if (typeof tag === 'string') return `${hint} ${tag}`
  }
  return `${hint} option`
}

function ownTypes(schema: JsonSchemaObject, depth: number, hint: string, conversion: PythonConversion): string[] {
  const names = inferredTypeNames(schema)
  if (names.length === 0) return []
  return [union(names.map((name) => typeConverters[name](schema, depth, hint, conversion)))]
}

/** `allOf` of object shapes becomes one TypedDict with every member's keys. */
function mergedAllOf(schema: JsonSchemaObject, depth: number, hint: string, conversion: PythonConversion): string[] {
  if (schema.allOf === undefined || schema.allOf.length === 0) return []
  const members = schema.allOf.map((member) => resolveNode(member, conversion.root))
  if (members.every((member) => typeof member === 'object' && member.properties !== undefined)) {
    const objects = members as JsonSchemaObject[]
    const merged: JsonSchemaObject = {
      type: 'object',
      properties: Object.assign({}, ...objects.map((member) => member.properties)),
      required: objects.flatMap((member) => member.required ?? []),
    }
    return [objectType(merged, depth, hint, conversion)]
  }
  return [pythonType(schema.allOf[0] as JsonSchemaNode, depth, hint, conversion)]
}

function objectType(schema: JsonSchemaObject, depth: number, hint: string, conversion: PythonConversion): string {
  if (depth >= SCHEMA_DEPTH_LIMIT) return `dict[str, ${'Any'}]`
  const properties = Object.entries(schema.properties ?? {})
  if (properties.length === 0) {
    const additional = schema.additionalProperties
    const value =
      additional === undefined || additional === true || additional === false
        ? 'Any'
        : pythonType(additional, depth + 1, `${hint} value`, conversion)
    return `dict[str, ${value}]`
  }
  const fields = objectFields(schema, depth, conversion)
  return conversion.declarations.typedDict([hint, `${conversion.toolName} ${hint}`], fields)
}

/** The keys of an object schema as TypedDict fields (also a binding's keyword parameters). */
export function objectFields(schema: JsonSchemaObject, depth: number, conversion: PythonConversion): PythonField[] {
  const required = new Set(schema.required ?? [])
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    type: pythonType(property, depth + 1, name, conversion),
    optional: !required.has(name),
    comment: fieldComment(property),
  }))
}

export function fieldComment(property: JsonSchemaNode): string | undefined {
  if (typeof property !== 'object') return undefined
  const description = typeof property.description === 'string' ? property.description.trim() : ''
  const format = typeof property.format === 'string' ? `(${property.format})` : ''
  const text = [description, format].filter((part) => part !== '').join(' ')
  return text === '' ? undefined : text
}

function arrayType(schema: JsonSchemaObject, depth: number, hint: string, conversion: PythonConversion): string {
  if (depth >= SCHEMA_DEPTH_LIMIT) return `list[${'Any'}]`
  const itemHint = `${hint} item`
  const prefix = schema.prefixItems ?? (Array.isArray(schema.items) ? (schema.items as JsonSchemaNode[]) : undefined)
  if (prefix !== undefined) {
    const members = prefix.map((item) => pythonType(item, depth + 1, itemHint, conversion))
    const rest = schema.prefixItems === undefined ? schema.additionalItems : (schema.items as JsonSchemaNode)
    const open = rest !== false && members.length > 0 ? ', ...' : ''
    return open === '' ? `tuple[${members.join(', ') || '()'}]` : `list[${'Any'}]`
  }
  const items = schema.items as JsonSchemaNode | undefined
  return `list[${items === undefined ? 'Any' : pythonType(items, depth + 1, itemHint, conversion)}]`
}

function referenceType(reference: string, depth: number, conversion: PythonConversion): string {
  if (conversion.references.has(reference)) return conversion.references.get(reference) ?? 'Any'
  const target = resolvePointer(conversion.root, reference)
  if (target === undefined) return 'Any'
  const name = reference.split('/').pop() ?? 'definition'
  conversion.references.set(reference, undefined)
  const inner = pythonType(target, depth, name === '#' ? conversion.toolName : name, conversion)
  const type = inner.includes(' | ')
    ? conversion.declarations.alias([name, `${conversion.toolName} ${name}`], inner)
    : inner
  conversion.references.set(reference, type)
  return type
}

/** A built type text, paid for by its length: nested unions re-split their members at every level. */
function metered(type: string, conversion: PythonConversion): string {
  conversion.meter.spend(type.length)
  return type
}

function resolveNode(node: JsonSchemaNode, root: JsonSchemaNode): JsonSchemaNode {
  return typeof node === 'object' && typeof node.$ref === 'string' ? (resolvePointer(root, node.$ref) ?? true) : node
}

function resolvePointer(root: JsonSchemaNode, reference: string): JsonSchemaNode | undefined {
  if (!reference.startsWith('#')) return undefined
  let current: unknown = root
  for (const token of reference
    .slice(1)
    .split('/')
    .filter((part) => part !== '')) {
    const key = unescapePointerToken(decodeURIComponent(token))
    current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined
  }
  return typeof current === 'boolean' || (typeof current === 'object' && current !== null)
    ? (current as JsonSchemaNode)
    : undefined
}

/** Python spells JSON strings, safe integers, booleans and null as `Literal` members; anything else widens. */
function literalUnion(values: readonly JsonValue[]): string {
  const literals: string[] = []
  const widened: string[] = []
  for (const value of values) {
    const literal = pythonLiteral(value)
    if (literal !== undefined) literals.push(literal)
    else widened.push(widenedType(value))
  }
  const members = widened
  if (literals.length > 0) members.unshift(`Literal[${[...new Set(literals)].join(', ')}]`)
  return union(members)
}

export function pythonLiteral(value: JsonValue): string | undefined {
  if (typeof value === 'string') return pythonString(value)
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (value === null) return 'None'
  if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= largestExactInteger) {
    return String(value)
  }
  return undefined
}

function widenedType(value: JsonValue): string {
  if (typeof value === 'number') return 'float'
  return Array.isArray(value) ? `list[${'Any'}]` : `dict[str, ${'Any'}]`
}

/** `A | B | None`: members deduplicated, `Literal`s merged into one, `Any` absorbing the rest. */
export function union(members: readonly string[]): string {
  const flat = [...new Set(members.flatMap((member) => splitUnion(member)))]
  if (flat.includes('Any')) return 'Any'
  const literals = flat.filter((member) => member.startsWith('Literal['))
  const others = flat.filter((member) => !member.startsWith('Literal[') && member !== 'None')
  const merged =
    literals.length > 1 ? [`Literal[${literals.map((literal) => literal.slice(8, -1)).join(', ')}]`] : literals
  const ordered = [...merged, ...others, ...(flat.includes('None') ? ['None'] : [])]
  return ordered.join(' | ')
}

/** Splits `A | B` at top level only (not inside brackets or string literals). */
function splitUnion(type: string): string[] {
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let start = 0
  for (let index = 0; index < type.length; index++) {
    const character = type[index]
    if (quoted) {
      if (character === '\\') index++
      else if (character === '"') quoted = false
    } else if (character === '"') quoted = true
    else if (character === '[') depth++
    else if (character === ']') depth--
    else if (depth === 0 && type.startsWith(' | ', index)) {
      parts.push(type.slice(start, index))
      start = index + 3
      index += 2
    }
  }
  parts.push(type.slice(start))
  return parts
}
