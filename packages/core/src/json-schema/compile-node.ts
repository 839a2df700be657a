import type { CompileContext, KeywordDefinition } from './compile-context.js'
import { describeValue } from './describe-value.js'
import { INSTANCE_KIND_COUNT, InstanceKind, kindOf } from './instance-kind.js'
import { detailText, typeDetail } from './keyword-details.js'
import { isSupportedKeyword, keywords } from './keywords.js'
import type { JsonSchemaObject } from './node.js'
import { SchemaCompileError } from './schema-compile-error.js'
import { ANY_TYPE, markTypeOnly, maskName, typeBits, typeMask, typeMatches } from './type-mask.js'
import { type Check, report, shouldStop, type ValidationState } from './validation-state.js'

export const acceptAll: Check = () => true
export const rejectAll: Check = (value, state) => {
  if (state.silent === 0) report(state, 'false', `no value is allowed here, received ${describeValue(value)}`)
  return false
}

/** Compiles one schema object into a check: the `type` gate, then the checks that apply to the value's kind. */
export function compileNode(schema: unknown, context: CompileContext, path: string): Check {
  if (schema === true) return acceptAll
  if (schema === false) return rejectAll
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new SchemaCompileError('schema', path, 'a schema must be an object or a boolean')
  }
  const object = schema as JsonSchemaObject
  const mask = typeMask(object.type, object.nullable === true, path)
  const byKind: Check[][] = []
  for (let kind = 0; kind < INSTANCE_KIND_COUNT; kind++) byKind.push([])
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
  return assemble(mask, byKind)
}

/** Runs `checks` in order; stops early once a failure cannot add detail. Unrolled for the common short lists. */
function sequence(checks: readonly Check[]): Check | undefined {
  if (checks.length === 0) return undefined
  if (checks.length === 1) return checks[0]
  if (checks.length === 2) {
    const [first, second] = checks as [Check, Check]
    return (value, state) => {
      if (first(value, state)) return second(value, state)
      if (!shouldStop(state)) second(value, state)
      return false
    }
  }
  return (value, state) => {
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

function typeFailure(expected: string) {
  const detail = typeDetail(expected)
  return (value: unknown, state: ValidationState) => {
    if (state.silent === 0) report(state, 'type', detailText(detail, value))
    return false
  }
}

/** Kind tests for a `type` naming a single kind: cheaper than the general mask lookup. */
const singleKindGuards: Partial<Record<number, (value: unknown) => boolean>> = {
  [typeBits.string]: (value) => typeof value === 'string',
  [typeBits.number]: (value) => typeof value === 'number',
  [typeBits.integer]: (value) => Number.isInteger(value),
  [typeBits.boolean]: (value) => typeof value === 'boolean',
  [typeBits.null]: (value) => value === null,
  [typeBits.object]: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  [typeBits.array]: (value) => Array.isArray(value),
}

const kindOfMask: Partial<Record<number, InstanceKind>> = {
  [typeBits.string]: InstanceKind.string,
  [typeBits.number]: InstanceKind.number,
  [typeBits.integer]: InstanceKind.number,
  [typeBits.boolean]: InstanceKind.boolean,
  [typeBits.null]: InstanceKind.null,
  [typeBits.object]: InstanceKind.object,
  [typeBits.array]: InstanceKind.array,
}

function assemble(mask: number, byKind: readonly Check[][]): Check {
  const fail = typeFailure(maskName(mask))
  const guard = singleKindGuards[mask]
  if (guard !== undefined) {
    const checks = sequence(byKind[kindOfMask[mask]!]!)
    if (checks === undefined) return markTypeOnly((value, state) => guard(value) || fail(value, state), mask)
    return (value, state) => (guard(value) ? checks(value, state) : fail(value, state))
  }
  const restricted = mask !== ANY_TYPE
  const perKind = byKind.map(sequence)
  if (perKind.every((check) => check === undefined)) {
    return restricted ? markTypeOnly((value, state) => typeMatches(mask, value) || fail(value, state), mask) : acceptAll
  }
  return (value, state) => {
    if (restricted && !typeMatches(mask, value)) return fail(value, state)
    const check = perKind[kindOf(value)]
    return check === undefined || check(value, state)
  }
}
