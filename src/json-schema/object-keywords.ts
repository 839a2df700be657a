import { captureIssues, issueDetail, passesSilently } from './capture-issues.js'
import type { KeywordDefinition } from './compile-context.js'
import { childPath } from './compile-context.js'
import { previewJson } from './describe-value.js'
import { InstanceKind } from './instance-kind.js'
import { expectCount, expectSchemaMap } from './keyword-values.js'
import type { JsonSchemaNode } from './node.js'
import { SchemaCompileError } from './schema-compile-error.js'
import { type Check, descend, report, shouldStop } from './validation-state.js'

const LISTED_KEYS = 20

type JsonRecord = Record<string, unknown>

function listKeys(keys: readonly string[]): string {
  if (keys.length === 0) return 'none'
  const shown = keys
    .slice(0, LISTED_KEYS)
    .map((key) => JSON.stringify(key))
    .join(', ')
  return keys.length > LISTED_KEYS ? `${shown}, … (${keys.length} keys)` : shown
}

function countKeys(object: JsonRecord): number {
  return Object.keys(object).length
}

function propertyCountBound(
  keyword: string,
  passes: (count: number, limit: number) => boolean,
  wording: string,
): KeywordDefinition {
  return {
    appliesTo: InstanceKind.object,
    compile(limitValue, _schema, _context, path): Check {
      const limit = expectCount(limitValue, keyword, path)
      return (value, state) => {
        const count = countKeys(value as JsonRecord)
        if (passes(count, limit)) return true
        if (state.silent === 0) report(state, keyword, `expected ${wording} ${limit} properties, received ${count}`)
        return false
      }
    },
  }
}

export const objectKeywords = {
  properties: {
    appliesTo: InstanceKind.object,
    compile(propertiesValue, _schema, context, path): Check | undefined {
      const properties = expectSchemaMap(propertiesValue, 'properties', path)
      const keys: string[] = []
      const checks: Check[] = []
      for (const key of Object.keys(properties)) {
        const schema = properties[key]
        if (schema === true) continue
        keys.push(key)
        checks.push(context.compile(schema, childPath(path, 'properties', key)))
      }
      if (keys.length === 0) return undefined
      return (value, state) => {
        const object = value as JsonRecord
        let valid = true
        for (let index = 0; index < keys.length; index++) {
          const key = keys[index]!
          if (!Object.hasOwn(object, key)) continue
          if (!descend(state, key, object[key], checks[index]!)) {
            valid = false
            if (shouldStop(state)) return false
          }
        }
        return valid
      }
    },
  },
  required: {
    appliesTo: InstanceKind.object,
    compile(requiredValue, _schema, _context, path): Check | undefined {
      if (!Array.isArray(requiredValue) || !requiredValue.every((key) => typeof key === 'string')) {
        throw new SchemaCompileError('required', path, 'must be an array of strings')
      }
      const keys = requiredValue as string[]
      if (keys.length === 0) return undefined
      return (value, state) => {
        const object = value as JsonRecord
        let valid = true
        for (const key of keys) {
          if (Object.hasOwn(object, key)) continue
          valid = false
          if (state.silent > 0) return false
          report(state, 'required', `missing required property ${JSON.stringify(key)}`)
        }
        return valid
      }
    },
  },
  additionalProperties: {
    appliesTo: InstanceKind.object,
    compile(additional, schema, context, path): Check | undefined {
      if (additional === true) return undefined
      const declared =
        schema.properties !== undefined ? Object.keys(expectSchemaMap(schema.properties, 'properties', path)) : []
      const known = new Set(declared)
      if (additional === false) {
        return (value, state) => {
          const object = value as JsonRecord
          let valid = true
          for (const key in object) {
            if (known.has(key) || !Object.hasOwn(object, key)) continue
            valid = false
            if (state.silent > 0) return false
            report(
              state,
              'additionalProperties',
              `unexpected property ${JSON.stringify(key)}; allowed properties: ${listKeys(declared)}`,
            )
            if (shouldStop(state)) return false
          }
          return valid
        }
      }
      const check = context.compile(additional as JsonSchemaNode, childPath(path, 'additionalProperties'))
      return (value, state) => {
        const object = value as JsonRecord
        let valid = true
        for (const key in object) {
          if (known.has(key) || !Object.hasOwn(object, key)) continue
          if (!descend(state, key, object[key], check)) {
            valid = false
            if (shouldStop(state)) return false
          }
        }
        return valid
      }
    },
  },
  propertyNames: {
    appliesTo: InstanceKind.object,
    compile(names, _schema, context, path): Check | undefined {
      if (names === true) return undefined
      const check = context.compile(names as JsonSchemaNode, childPath(path, 'propertyNames'))
      return (value, state) => {
        const object = value as JsonRecord
        let valid = true
        for (const key in object) {
          if (!Object.hasOwn(object, key) || passesSilently(check, key, state)) continue
          valid = false
          if (state.silent > 0) return false
          const inner = captureIssues(check, key, state)[0]
          const why = inner === undefined ? 'is not allowed' : issueDetail(inner)
          report(state, 'propertyNames', `property name ${previewJson(key)} is invalid: ${why}`)
          if (shouldStop(state)) return false
        }
        return valid
      }
    },
  },
  minProperties: propertyCountBound('minProperties', (count, limit) => count >= limit, 'at least'),
  maxProperties: propertyCountBound('maxProperties', (count, limit) => count <= limit, 'at most'),
} satisfies Record<string, KeywordDefinition>
