import type { KeywordDefinition } from './compile-context.js'
import { deepEqual } from './deep-equal.js'
import { describeValue, previewJson } from './describe-value.js'
import { SchemaCompileError } from './schema-compile-error.js'
import { type Check, report } from './validation-state.js'

const ENUM_LISTED_VALUES = 12

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value !== 'object'
}

function listValues(values: readonly unknown[]): string {
  const shown = values.slice(0, ENUM_LISTED_VALUES).map(previewJson).join(', ')
  return values.length > ENUM_LISTED_VALUES ? `${shown}, … (${values.length} values)` : shown
}

function compileConst(expected: unknown): Check {
  const fail = (value: unknown, state: Parameters<Check>[1]) => {
    if (state.silent === 0)
      report(state, 'const', `expected ${previewJson(expected)}, received ${describeValue(value)}`)
    return false
  }
  if (isPrimitive(expected)) return (value, state) => value === expected || fail(value, state)
  return (value, state) => deepEqual(value, expected, state.maxDepth) || fail(value, state)
}

function compileEnum(values: unknown, schemaPath: string): Check {
  if (!Array.isArray(values)) throw new SchemaCompileError('enum', schemaPath, 'must be an array')
  const detail = `expected one of ${listValues(values)}`
  const fail = (value: unknown, state: Parameters<Check>[1]) => {
    if (state.silent === 0) report(state, 'enum', `${detail}; received ${describeValue(value)}`)
    return false
  }
  if (values.every(isPrimitive)) {
    const allowed = new Set(values)
    return (value, state) => allowed.has(value) || fail(value, state)
  }
  return (value, state) => {
    for (const candidate of values) if (deepEqual(value, candidate, state.maxDepth)) return true
    return fail(value, state)
  }
}

export const valueKeywords = {
  const: { appliesTo: 'any', compile: (value) => compileConst(value) },
  enum: { appliesTo: 'any', compile: (value, _schema, _context, schemaPath) => compileEnum(value, schemaPath) },
} satisfies Record<string, KeywordDefinition>
