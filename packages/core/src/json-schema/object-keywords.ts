import { captureIssues, issueDetail, passesSilently } from './capture-issues.js'
import type { KeywordDefinition } from './compile-context.js'
import { childPath } from './compile-context.js'
import { previewJson } from './describe-value.js'
import { InstanceKind } from './instance-kind.js'
import { expectCount, expectSchemaMap } from './keyword-values.js'
import type { JsonSchemaNode } from './node.js'
import { compileObjectShape, listKeys } from './object-shape.js'
import { SchemaCompileError } from './schema-compile-error.js'
import { type Check, descend, report, shouldStop } from './validation-state.js'

type JsonRecord = Record<string, unknown>

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
    compile: (properties, schema, context, path) => {
      expectSchemaMap(properties, 'properties', path)
      return compileObjectShape(schema, context, path)
    },
  },
  required: {
    appliesTo: InstanceKind.object,
    compile(requiredValue, schema, _context, path): Check | undefined {
      if (!Array.isArray(requiredValue) || !requiredValue.every((key) => typeof key === 'string')) {
        throw new SchemaCompileError('required', path, 'must be an array of strings')
      }
      const keys = requiredValue as string[]
      // With `properties` beside it, the fused object shape checks required keys.
      if (keys.length === 0 || schema.properties !== undefined) return undefined
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
      // With `properties` beside it, the fused object shape checks additional properties.
      if (additional === true || schema.properties !== undefined) return undefined
      const declared: string[] = []
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
