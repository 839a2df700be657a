import { unescapePointerToken } from 'qilin-tools/internal/json-schema/json-pointer.js'
import type { JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import type { JsonSchemaNode, JsonSchemaObject, JsonSchemaTypeName } from 'qilin-tools/internal/json-schema/node.js'
import type { WorkMeter } from 'qilin-tools/internal/providers/render-budget.js'
import { SCHEMA_DEPTH_LIMIT } from 'qilin-tools/internal/schema/depth.js'
import { stringLiteral } from '../code-text.js'
import { inferredTypeNames } from '../inferred-type-names.js'
import { jsonValueType, keyword, type TsDefinition, type TsMember, type TsType, unknownType } from './ts-type.js'

interface Conversion {
  readonly root: JsonSchemaNode
  /** One definition per `$ref` pointer within this root. */
  readonly definitions: Map<string, TsDefinition>
  readonly nextId: { value: number }
  readonly meter: WorkMeter
}

type Converter = (schema: JsonSchemaObject, depth: number, hint: string, conversion: Conversion) => TsType

/** Each JSON type name declares its TypeScript answer here; nothing else branches on type names. */
const typeConverters = {
  string: () => keyword('string'),
  number: () => keyword('number'),
  integer: () => keyword('number'),
  boolean: () => keyword('boolean'),
  null: () => keyword('null'),
  array: (schema, depth, hint, conversion) => convertArray(schema, depth, hint, conversion),
  object: (schema, depth, hint, conversion) => convertObject(schema, depth, hint, conversion),
} satisfies Record<JsonSchemaTypeName, Converter>

/** Converts one root schema (a tool's parameters or output) with `$ref`s resolved against that root. */
export function schemaToTsType(
  root: JsonSchemaNode,
  hint: string,
  nextId: { value: number },
  meter: WorkMeter,
): TsType {
  return convert(root, 0, hint, { root, definitions: new Map(), nextId, meter })
}

function convert(node: JsonSchemaNode, depth: number, hint: string, conversion: Conversion): TsType {
  conversion.meter.spend()
  if (node === true) return unknownType
  if (node === false) return keyword('never')
  if (typeof node.$ref === 'string') return convertReference(node.$ref, depth, conversion)
  if ('const' in node) return literal(node.const as JsonValue)
  if (Array.isArray(node.enum)) {
    conversion.meter.spend(node.enum.length)
    return union(node.enum.map(literal), hint)
  }
  const own = convertOwn(node, depth, hint, conversion)
  const choices = node.oneOf ?? node.anyOf
  const parts = [
    ...(own === undefined ? [] : [own]),
    ...(choices === undefined
      ? []
      : [
          union(
            choices.map((choice) => convert(choice, depth, hint, conversion)),
            hint,
          ),
        ]),
    ...(node.allOf ?? []).map((part) => convert(part, depth, hint, conversion)),
  ].filter((part) => part !== unknownType)
  const type = parts.length === 0 ? unknownType : parts.length === 1 ? (parts[0] as TsType) : intersection(parts)
  return node.nullable === true ? union([type, keyword('null')], hint) : type
}

function convertOwn(schema: JsonSchemaObject, depth: number, hint: string, conversion: Conversion): TsType | undefined {
  const names = inferredTypeNames(schema)
  if (names.length === 0) return undefined
  return union(
    names.map((name) => typeConverters[name](schema, depth, hint, conversion)),
    hint,
  )
}

function convertObject(schema: JsonSchemaObject, depth: number, hint: string, conversion: Conversion): TsType {
  if (depth >= SCHEMA_DEPTH_LIMIT) return jsonValueType
  const required = new Set(schema.required ?? [])
  const members = Object.entries(schema.properties ?? {}).map(([name, property]): TsMember => {
    const type = convert(property, depth + 1, name, conversion)
    const description = typeof property === 'object' ? memberNote(property) : undefined
    return description === undefined
      ? { name, optional: !required.has(name), type }
      : { name, optional: !required.has(name), description, type }
  })
  const additional = schema.additionalProperties
  if (typeof additional === 'object') {
    const index = convert(additional, depth + 1, `${hint} value`, conversion)
    return members.length === 0
      ? { kind: 'object', members, index, hint }
      : { kind: 'object', members, index: unknownType, hint }
  }
  if (members.length === 0 && additional !== false) return { kind: 'object', members, index: unknownType, hint }
  return { kind: 'object', members, hint }
}

function convertArray(schema: JsonSchemaObject, depth: number, hint: string, conversion: Conversion): TsType {
  if (depth >= SCHEMA_DEPTH_LIMIT) return jsonValueType
  const itemHint = singular(hint)
  const prefix = schema.prefixItems ?? (Array.isArray(schema.items) ? (schema.items as readonly JsonSchemaNode[]) : [])
  const after = schema.prefixItems !== undefined ? schema.items : schema.additionalItems
  if (prefix.length > 0) {
    const items = prefix.map((item) => convert(item, depth + 1, itemHint, conversion))
    if (after === false) return { kind: 'tuple', items }
    const rest =
      after === undefined || after === true || Array.isArray(after)
        ? unknownType
        : convert(after as JsonSchemaNode, depth + 1, itemHint, conversion)
    return { kind: 'tuple', items, rest }
  }
  const items = schema.items
  const item =
    items === undefined || Array.isArray(items)
      ? unknownType
      : convert(items as JsonSchemaNode, depth + 1, itemHint, conversion)
  return { kind: 'array', item }
}

function convertReference(pointer: string, depth: number, conversion: Conversion): TsType {
  const known = conversion.definitions.get(pointer)
  if (known !== undefined) {
    if (known.type === undefined) known.recursive = true
    return known.type !== undefined && !isNamed(known.type) ? known.type : { kind: 'reference', definition: known }
  }
  const target = resolvePointer(conversion.root, pointer)
  if (target === undefined) return unknownType
  const name = pointer.split('/').pop() ?? 'Ref'
  const definition: TsDefinition = {
    name: name === '#' ? 'Root' : name,
    id: conversion.nextId.value++,
    type: undefined,
    recursive: false,
  }
  conversion.definitions.set(pointer, definition)
  definition.type = convert(target, depth, definition.name, conversion)
  return isNamed(definition.type) || definition.recursive ? { kind: 'reference', definition } : definition.type
}

/** Definitions that print as more than a keyword keep their `$defs` name. */
function isNamed(type: TsType): boolean {
  return type.kind !== 'keyword' && type.kind !== 'array'
}

function resolvePointer(root: JsonSchemaNode, pointer: string): JsonSchemaNode | undefined {
  if (!pointer.startsWith('#')) return undefined
  const steps = pointer
    .slice(1)
    .split('/')
    .filter((step) => step !== '')
    .map((step) => unescapePointerToken(decodeURIComponent(step)))
  let current: unknown = root
  for (const step of steps) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<string, unknown>)[step]
  }
  return typeof current === 'boolean' || (typeof current === 'object' && current !== null)
    ? (current as JsonSchemaNode)
    : undefined
}

function literal(value: JsonValue): TsType {
  if (typeof value === 'string') return keyword(stringLiteral(value))
  if (value === null || typeof value !== 'object') return keyword(JSON.stringify(value))
  return unknownType
}

function union(options: readonly TsType[], hint: string): TsType {
  const flat = options.flatMap((option) => (option.kind === 'union' ? option.options : [option]))
  if (flat.some((option) => option === unknownType)) return unknownType
  return flat.length === 1 ? (flat[0] as TsType) : { kind: 'union', options: flat, hint }
}

function intersection(parts: readonly TsType[]): TsType {
  return { kind: 'intersection', parts }
}

/** `entities` → `entity`, `relations` → `relation`; otherwise `<hint> item`. */
function singular(hint: string): string {
  if (/[^aeiou]ies$/i.test(hint)) return `${hint.slice(0, -3)}y`
  if (/[^s]s$/i.test(hint) && !hint.includes(' ')) return hint.slice(0, -1)
  return `${hint} item`
}

/** What a member's comment says: its description, then its default when it has one. */
function memberNote(property: JsonSchemaObject): string | undefined {
  const description = typeof property.description === 'string' ? property.description.trim() : ''
  if (!('default' in property)) return description === '' ? undefined : description
  const fallback = `Default: ${JSON.stringify(property.default)}`
  if (description === '') return fallback
  return `${description}${/[.!?]$/.test(description) ? '' : '.'} ${fallback}`
}
