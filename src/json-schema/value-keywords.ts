import type { CompileContext, KeywordDefinition } from './compile-context.js'
import { deepEqual } from './deep-equal.js'
import { enumSizeProblem } from './enum-limit.js'
import { constDetail, detailText, enumDetail } from './keyword-details.js'
import { SchemaCompileError } from './schema-compile-error.js'
import { type Check, report } from './validation-state.js'

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value !== 'object'
}

function compileConst(expected: unknown): Check {
  const detail = constDetail(expected)
  const fail = (value: unknown, state: Parameters<Check>[1]) => {
    if (state.silent === 0) report(state, 'const', detailText(detail, value))
    return false
  }
  if (isPrimitive(expected)) return (value, state) => value === expected || fail(value, state)
  return (value, state) => deepEqual(value, expected, state.maxDepth) || fail(value, state)
}

function compileEnum(values: unknown, context: CompileContext, schemaPath: string): Check | undefined {
  if (!Array.isArray(values)) throw new SchemaCompileError('enum', schemaPath, 'must be an array')
  const oversized = enumSizeProblem(values.length)
  if (oversized !== undefined) {
    // Lenient mode leaves it to whoever sent it, like any keyword we do not enforce.
    context.unsupported('enum', schemaPath, oversized)
    return undefined
  }
  const detail = enumDetail(values)
  const fail = (value: unknown, state: Parameters<Check>[1]) => {
    if (state.silent === 0) report(state, 'enum', detailText(detail, value))
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
  enum: { appliesTo: 'any', compile: (value, _schema, context, schemaPath) => compileEnum(value, context, schemaPath) },
} satisfies Record<string, KeywordDefinition>
