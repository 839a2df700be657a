import type { CompileContext } from './compile-context.js'
import { childPath } from './compile-context.js'
import { describeValue, quote } from './describe-value.js'
import type { JsonSchemaNode, JsonSchemaObject } from './node.js'
import { maskName, typeMatches, typeOnlyMask } from './type-mask.js'
import { type Check, descend, report, shouldStop, type ValidationState } from './validation-state.js'

const LISTED_KEYS = 20
/** Up to this many declared properties are found by a linear scan of interned keys; more use a Map. */
const LINEAR_LOOKUP_LIMIT = 12

type JsonRecord = Record<string, unknown>

export function listKeys(keys: readonly string[]): string {
  if (keys.length === 0) return 'none'
  const shown = keys
    .slice(0, LISTED_KEYS)
    .map((key) => JSON.stringify(key))
    .join(', ')
  return keys.length > LISTED_KEYS ? `${shown}, … (${keys.length} keys)` : shown
}

/**
 * `properties`, `required` and `additionalProperties` of one schema fused into a single pass over the instance's
 * own keys: each key is looked up once among the declared ones, its value read straight from the `for…in`
 * iteration, and required keys are ticked off in a bit set (or a counter past 31 keys).
 */
export function compileObjectShape(schema: JsonSchemaObject, context: CompileContext, path: string): Check {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchemaNode>
  const declared = Object.keys(properties)
  const checks: (Check | undefined)[] = []
  const masks: number[] = []
  for (const key of declared) {
    const check = context.compile(properties[key], childPath(path, 'properties', key))
    const mask = typeOnlyMask(check)
    checks.push(mask === undefined ? check : undefined)
    masks.push(mask ?? 0)
  }
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
  const requiredIndex = required.map((key) => declared.indexOf(key))
  const tracked = (index: number) => index >= 0 && index < 31
  const requiredBits = requiredIndex.reduce((bits, index) => (tracked(index) ? bits | (1 << index) : bits), 0)
  const untracked = required.filter((_key, position) => !tracked(requiredIndex[position]!))
  const additional = schema.additionalProperties as JsonSchemaNode | undefined
  const closed = additional === false
  const additionalCheck =
    additional === undefined || additional === true || additional === false
      ? undefined
      : context.compile(additional, childPath(path, 'additionalProperties'))
  const allowedList = listKeys(declared)
  const lookup = declared.length > LINEAR_LOOKUP_LIMIT ? new Map(declared.map((key, index) => [key, index])) : undefined
  const count = declared.length

  const missingMessages = required.map((key) => `missing required property ${JSON.stringify(key)}`)
  const reportMissing = (object: JsonRecord, state: ValidationState) => {
    for (let index = 0; index < required.length; index++) {
      const key = required[index]!
      if (Object.hasOwn(object, key) && object[key] !== undefined) continue
      report(state, 'required', missingMessages[index]!)
      if (shouldStop(state)) return
    }
  }

  return (value, state) => {
    const object = value as JsonRecord
    let seen = 0
    let valid = true
    // Object.keys, not for…in: own keys only, and it stays fast when one closure sees objects of many shapes.
    const keys = Object.keys(object)
    for (let position = 0; position < keys.length; position++) {
      const key = keys[position]!
      let index = -1
      if (lookup === undefined) {
        for (let candidate = 0; candidate < count; candidate++) {
          if (declared[candidate] === key) {
            index = candidate
            break
          }
        }
      } else {
        index = lookup.get(key) ?? -1
      }
      if (index === -1) {
        if (closed) {
          valid = false
          if (state.silent > 0) return false
          report(state, 'additionalProperties', `unexpected property ${quote(key)}; allowed properties: ${allowedList}`)
          if (shouldStop(state)) return false
        } else if (additionalCheck !== undefined && !descend(state, key, object[key], additionalCheck)) {
          valid = false
          if (shouldStop(state)) return false
        }
        continue
      }
      const child = object[key]
      // A property holding `undefined` (possible in JS, not in JSON) counts as absent, as JSON.stringify would.
      if (child === undefined) continue
      seen |= 1 << index
      const check = checks[index]
      if (check === undefined) {
        if (typeMatches(masks[index]!, child) && state.depth < state.maxDepth) continue
        valid = false
        if (state.silent > 0) return false
        if (state.depth >= state.maxDepth) {
          descend(state, key, child, () => true)
        } else {
          state.path[state.depth] = key
          state.depth++
          report(state, 'type', `expected ${maskName(masks[index]!)}, received ${describeValue(child)}`)
          state.depth--
        }
        if (shouldStop(state)) return false
      } else if (!descend(state, key, child, check)) {
        valid = false
        if (shouldStop(state)) return false
      }
    }
    let missing = (seen & requiredBits) !== requiredBits
    if (!missing && untracked.length > 0) missing = untracked.some((key) => !Object.hasOwn(object, key))
    if (missing) {
      if (state.silent > 0) return false
      reportMissing(object, state)
      return false
    }
    return valid
  }
}
