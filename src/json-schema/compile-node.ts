import type { CompileContext, KeywordDefinition } from './compile-context.js'
import { describeValue } from './describe-value.js'
import { INSTANCE_KIND_COUNT, InstanceKind, kindOf } from './instance-kind.js'
import { isSupportedKeyword, keywords } from './keywords.js'
import type { JsonSchemaObject, JsonSchemaTypeName } from './node.js'
import { SchemaCompileError } from './schema-compile-error.js'
import { type Check, report, shouldStop } from './validation-state.js'

const INTEGER_BIT = 1 << INSTANCE_KIND_COUNT
const ANY_TYPE = (1 << INSTANCE_KIND_COUNT) - 1

const typeBits = {
  null: 1 << InstanceKind.null,
  boolean: 1 << InstanceKind.boolean,
  object: 1 << InstanceKind.object,
  array: 1 << InstanceKind.array,
  number: 1 << InstanceKind.number,
  string: 1 << InstanceKind.string,
  integer: INTEGER_BIT,
} satisfies Record<JsonSchemaTypeName, number>

export const acceptAll: Check = () => true
export const rejectAll: Check = (value, state) => {
  if (state.silent === 0) report(state, 'false', `no value is allowed here, received ${describeValue(value)}`)
  return false
}

function typeNames(type: unknown, nullable: boolean, path: string): string[] | undefined {
  if (type === undefined) return undefined
  const names = Array.isArray(type) ? [...type] : [type]
  for (const name of names) {
    if (typeof name !== 'string' || !Object.hasOwn(typeBits, name)) {
      throw new SchemaCompileError('type', path, `unknown type ${JSON.stringify(name)}`)
    }
  }
  if (nullable && !names.includes('null')) names.push('null')
  return names as string[]
}

/** Compiles one schema object into a check: the `type` gate, then the checks that apply to the value's kind. */
export function compileNode(schema: unknown, context: CompileContext, path: string): Check {
  if (schema === true) return acceptAll
  if (schema === false) return rejectAll
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new SchemaCompileError('schema', path, 'a schema must be an object or a boolean')
  }
  const object = schema as JsonSchemaObject
  const byKind: Check[][] = Array.from({ length: INSTANCE_KIND_COUNT }, () => [])
  for (const keyword of Object.keys(object)) {
    if (!isSupportedKeyword(keyword)) {
      context.unsupported(keyword, path, 'is not a supported keyword')
      continue
    }
    const definition: KeywordDefinition = keywords[keyword]
    const check = definition.compile?.(object[keyword], object, context, path)
    if (check === undefined || definition.appliesTo === 'node') continue
    if (definition.appliesTo === 'any') for (const list of byKind) list.push(check)
    else byKind[definition.appliesTo]!.push(check)
  }
  const names = typeNames(object.type, object.nullable === true, path)
  let mask = ANY_TYPE
  if (names !== undefined) mask = names.reduce((bits, name) => bits | typeBits[name as JsonSchemaTypeName], 0)
  return assemble(mask, byKind, names?.join(' or ') ?? '')
}

function assemble(mask: number, byKind: readonly Check[][], expected: string): Check {
  const restricted = mask !== ANY_TYPE
  if (!restricted && byKind.every((list) => list.length === 0)) return acceptAll
  const integerAllowed = (mask & INTEGER_BIT) !== 0 && (mask & typeBits.number) === 0
  return (value, state) => {
    const kind = kindOf(value)
    if (
      restricted &&
      (mask & (1 << kind)) === 0 &&
      !(integerAllowed && kind === InstanceKind.number && Number.isInteger(value))
    ) {
      if (state.silent === 0) report(state, 'type', `expected ${expected}, received ${describeValue(value)}`)
      return false
    }
    const checks = byKind[kind]!
    let valid = true
    for (let index = 0; index < checks.length; index++) {
      if (!checks[index]!(value, state)) {
        valid = false
        if (shouldStop(state)) return false
      }
    }
    return valid
  }
}
