import type { KeywordEmitter } from './code-generator.js'
import { enumSizeProblem } from './enum-limit.js'
import { formatCheckers } from './formats.js'
import { compileLinearPattern } from './linear-regex.js'
import type { JsonSchemaObject } from './node.js'
import { PATTERN_INPUT_LIMIT } from './pattern-risk.js'
import { finite, KIND_TESTS, literal } from './source-literals.js'

/** Emitters for the keywords that check the value itself (no subschemas); each mirrors its keyword's closure. */

/** The JSON type names `type` allows (with "null" for `nullable: true`), or undefined without `type`. */
export function typeNames(schema: JsonSchemaObject): string[] | undefined {
  if (schema.type === undefined) return undefined
  const names: string[] = Array.isArray(schema.type) ? [...schema.type] : [schema.type as string]
  if (schema.nullable === true && !names.includes('null')) names.push('null')
  for (const name of names) if (!Object.hasOwn(KIND_TESTS, name)) throw new Error(`unknown type ${name}`)
  return names
}

const type: KeywordEmitter = (schema, generator) => {
  const names = typeNames(schema)
  if (names === undefined) return []
  const test = names.map((name) => KIND_TESTS[name as keyof typeof KIND_TESTS]).join(' || ')
  return [`if (!(${test})) ${generator.failOn('type')}`]
}

export const typeEmitters = { type } satisfies Record<string, KeywordEmitter>

export const valueEmitters = {
  const(schema, generator) {
    const simple = literal(schema.const)
    if (simple !== undefined) return [`if (data !== ${simple}) ${generator.failOn('const')}`]
    return [
      `if (!deepEqual(data, ${generator.constant(schema.const)}, ${generator.maxDepthSource})) ${generator.failOn('const')}`,
    ]
  },
  enum(schema, generator) {
    const values = schema.enum!
    // An enum over the cap the compiler refused (lenient mode) checks nothing, as in the closure tree.
    if (enumSizeProblem(values.length) !== undefined) return []
    const simple = values.map(literal)
    if (simple.every((text) => text !== undefined) && values.length <= 8) {
      return [`if (!(${simple.map((text) => `data === ${text}`).join(' || ') || 'false'})) ${generator.failOn('enum')}`]
    }
    if (simple.every((text) => text !== undefined)) {
      return [`if (!${generator.constant(new Set(values))}.has(data)) ${generator.failOn('enum')}`]
    }
    const depth = generator.maxDepthSource
    return [
      `if (!${generator.constant(values)}.some((candidate) => deepEqual(data, candidate, ${depth}))) ${generator.failOn('enum')}`,
    ]
  },
} satisfies Record<string, KeywordEmitter>

export const stringEmitters = {
  minLength(schema, generator) {
    const limit = finite(schema.minLength)
    return [
      `if (data.length < ${limit} || (data.length < 2 * ${limit} && codePointLength(data) < ${limit})) ${generator.failOn('minLength')}`,
    ]
  },
  maxLength(schema, generator) {
    const limit = finite(schema.maxLength)
    return [`if (data.length > ${limit} && codePointLength(data) > ${limit}) ${generator.failOn('maxLength')}`]
  },
  pattern(schema, generator) {
    // A pattern the compiler refused (lenient mode) checks nothing, as in the closure tree.
    if (typeof schema.pattern !== 'string') return []
    const compiled = compileLinearPattern(schema.pattern)
    if (!compiled.ok) return []
    const regex = generator.constant(compiled.pattern)
    return [`if (data.length > ${PATTERN_INPUT_LIMIT} || !${regex}.test(data)) ${generator.failOn('pattern')}`]
  },
  format(schema, generator) {
    const format = schema.format
    if (!generator.options.assertFormats || typeof format !== 'string' || !Object.hasOwn(formatCheckers, format)) {
      return []
    }
    return [`if (!${generator.constant(formatCheckers[format])}(data)) ${generator.failOn('format')}`]
  },
} satisfies Record<string, KeywordEmitter>

function bound(keyword: 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum', operator: string) {
  const emit: KeywordEmitter = (schema, generator) => [
    `if (!(data ${operator} ${finite(schema[keyword])})) ${generator.failOn(keyword)}`,
  ]
  return emit
}

export const numberEmitters = {
  minimum: bound('minimum', '>='),
  maximum: bound('maximum', '<='),
  exclusiveMinimum: bound('exclusiveMinimum', '>'),
  exclusiveMaximum: bound('exclusiveMaximum', '<'),
  multipleOf: (schema, generator) => [
    `if (!isMultipleOf(data, ${finite(schema.multipleOf)})) ${generator.failOn('multipleOf')}`,
  ],
} satisfies Record<string, KeywordEmitter>
