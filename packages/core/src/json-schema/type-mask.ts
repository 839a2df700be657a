import { INSTANCE_KIND_COUNT, InstanceKind, kindOf } from './instance-kind.js'
import type { JsonSchemaObject, JsonSchemaTypeName } from './node.js'
import { SchemaCompileError } from './schema-compile-error.js'
import type { Check } from './validation-state.js'

/** `type` compiled to a bit set: one bit per instance kind, plus one for "integer" (a number with no fraction). */
export const INTEGER_BIT = 1 << INSTANCE_KIND_COUNT
export const ANY_TYPE = (1 << INSTANCE_KIND_COUNT) - 1

export const typeBits = {
  null: 1 << InstanceKind.null,
  boolean: 1 << InstanceKind.boolean,
  object: 1 << InstanceKind.object,
  array: 1 << InstanceKind.array,
  number: 1 << InstanceKind.number,
  string: 1 << InstanceKind.string,
  integer: INTEGER_BIT,
} satisfies Record<JsonSchemaTypeName, number>

const TYPE_ORDER: readonly JsonSchemaTypeName[] = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']

export function typeMatches(mask: number, value: unknown): boolean {
  const kind = kindOf(value)
  if ((mask & (1 << kind)) !== 0) return true
  return kind === InstanceKind.number && (mask & INTEGER_BIT) !== 0 && Number.isInteger(value)
}

/** "string or null", in a fixed order so messages are deterministic. */
export function maskName(mask: number): string {
  let name = maskNames[mask]
  if (name === undefined) {
    name = TYPE_ORDER.filter((type) => (mask & typeBits[type]) !== 0).join(' or ')
    maskNames[mask] = name
  }
  return name
}
const maskNames: string[] = []

/** `type` (with OpenAPI's `nullable`) as a mask; throws naming `path` for an unknown type name. */
export function typeMask(type: unknown, nullable: boolean, path: string): number {
  if (type === undefined) return ANY_TYPE
  const names: unknown[] = Array.isArray(type) ? type : [type]
  let mask = nullable ? typeBits.null : 0
  for (const name of names) {
    if (typeof name !== 'string' || !Object.hasOwn(typeBits, name)) {
      throw new SchemaCompileError('type', path, `unknown type ${JSON.stringify(name)}`)
    }
    mask |= typeBits[name as keyof typeof typeBits]
  }
  return mask
}

export function schemaTypeMask(schema: JsonSchemaObject): number {
  return typeMask(schema.type, schema.nullable === true, '')
}

const typeOnlyChecks = new WeakMap<Check, number>()

/** Marks a compiled node that checks nothing but its type, so parents can test the mask inline. */
export function markTypeOnly(check: Check, mask: number): Check {
  typeOnlyChecks.set(check, mask)
  return check
}

export function typeOnlyMask(check: Check): number | undefined {
  return typeOnlyChecks.get(check)
}
