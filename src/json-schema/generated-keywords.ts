import type { CodeGenerator, KeywordEmitter } from './code-generator.js'
import { formatCheckers } from './formats.js'
import { combinatorEmitter } from './generated-applicators.js'
import { addsNoCheck } from './keywords.js'
import type { JsonSchemaObject } from './node.js'
import { PATTERN_INPUT_LIMIT, patternRisk } from './pattern-risk.js'
import { constantPiece } from './pointer-expression.js'
import { finite, KIND_TESTS, literal } from './source-literals.js'

/** Source emitters per keyword group for the generated checks; each mirrors the closure compiler of its group. */

type Kind = 'string' | 'number' | 'array' | 'object'

function typeNames(schema: JsonSchemaObject): string[] | undefined {
  if (schema.type === undefined) return undefined
  const names: string[] = Array.isArray(schema.type) ? [...schema.type] : [schema.type as string]
  if (schema.nullable === true && !names.includes('null')) names.push('null')
  for (const name of names) if (!Object.hasOwn(KIND_TESTS, name)) throw new Error(`unknown type ${name}`)
  return names
}

/** Wraps the checks of one kind in a kind test, unless `type` already guarantees that kind. */
function forKind(kind: Kind, emit: (schema: JsonSchemaObject, generator: CodeGenerator) => string[]): KeywordEmitter {
  return (schema, generator) => {
    const lines = emit(schema, generator)
    if (lines.length === 0) return lines
    const names = typeNames(schema)
    const guaranteed = names?.every((name) => name === kind || (kind === 'number' && name === 'integer')) === true
    return guaranteed ? lines : [`if (${KIND_TESTS[kind]}) {`, ...lines, '}']
  }
}

const typeEmitter: KeywordEmitter = (schema, generator) => {
  const names = typeNames(schema)
  if (names === undefined) return []
  const test = names.map((name) => KIND_TESTS[name as keyof typeof KIND_TESTS]).join(' || ')
  return [`if (!(${test})) ${generator.failOn('type')}`]
}

const valueEmitter: KeywordEmitter = (schema, generator) => {
  const lines: string[] = []
  const depth = generator.maxDepthSource
  if (schema.const !== undefined) {
    const simple = literal(schema.const)
    lines.push(
      simple === undefined
        ? `if (!E(d, ${generator.constant(schema.const)}, ${depth})) ${generator.failOn('const')}`
        : `if (d !== ${simple}) ${generator.failOn('const')}`,
    )
  }
  if (schema.enum !== undefined) {
    const values = schema.enum
    const simple = values.map(literal)
    if (simple.every((text) => text !== undefined) && values.length <= 8) {
      lines.push(`if (!(${simple.map((text) => `d === ${text}`).join(' || ') || 'false'})) ${generator.failOn('enum')}`)
    } else if (simple.every((text) => text !== undefined)) {
      lines.push(`if (!${generator.constant(new Set(values))}.has(d)) ${generator.failOn('enum')}`)
    } else {
      lines.push(`if (!${generator.constant(values)}.some((e) => E(d, e, ${depth}))) ${generator.failOn('enum')}`)
    }
  }
  return lines
}

const stringEmitter = forKind('string', (schema, generator) => {
  const lines: string[] = []
  if (schema.minLength !== undefined) {
    const limit = finite(schema.minLength)
    lines.push(
      `if (d.length < ${limit} || (d.length < 2 * ${limit} && L(d) < ${limit})) ${generator.failOn('minLength')}`,
    )
  }
  if (schema.maxLength !== undefined) {
    const limit = finite(schema.maxLength)
    lines.push(`if (d.length > ${limit} && L(d) > ${limit}) ${generator.failOn('maxLength')}`)
  }
  if (typeof schema.pattern === 'string' && patternRisk(schema.pattern) === undefined) {
    const regex = generator.constant(new RegExp(schema.pattern, 'u'))
    lines.push(`if (d.length > ${PATTERN_INPUT_LIMIT} || !${regex}.test(d)) ${generator.failOn('pattern')}`)
  }
  const format = schema.format
  if (generator.options.assertFormats && typeof format === 'string' && Object.hasOwn(formatCheckers, format)) {
    lines.push(`if (!${generator.constant(formatCheckers[format])}(d)) ${generator.failOn('format')}`)
  }
  return lines
})

const numberEmitter = forKind('number', (schema, generator) => {
  const bounds: [unknown, string, string][] = [
    [schema.minimum, '>=', 'minimum'],
    [schema.maximum, '<=', 'maximum'],
    [schema.exclusiveMinimum, '>', 'exclusiveMinimum'],
    [schema.exclusiveMaximum, '<', 'exclusiveMaximum'],
  ]
  const lines = bounds
    .filter(([limit]) => limit !== undefined)
    .map(([limit, operator, keyword]) => `if (!(d ${operator} ${finite(limit)})) ${generator.failOn(keyword)}`)
  if (schema.multipleOf !== undefined) {
    lines.push(`if (!M(d, ${finite(schema.multipleOf)})) ${generator.failOn('multipleOf')}`)
  }
  return lines
})

const arrayEmitter = forKind('array', (schema, generator) => {
  const lines: string[] = []
  if (schema.minItems !== undefined) {
    lines.push(`if (d.length < ${finite(schema.minItems)}) ${generator.failOn('minItems')}`)
  }
  if (schema.maxItems !== undefined) {
    lines.push(`if (d.length > ${finite(schema.maxItems)}) ${generator.failOn('maxItems')}`)
  }
  const tupleItems = Array.isArray(schema.items) ? schema.items : undefined
  for (const tuple of [schema.prefixItems, tupleItems]) {
    tuple?.forEach((item, index) => {
      const check = generator.descend(item, `d[${index}]`, constantPiece(index))
      if (check !== '') lines.push(`if (d.length > ${index}) { ${check} }`)
    })
  }
  const rest = tupleItems === undefined ? schema.items : schema.additionalItems
  const start = (tupleItems ?? schema.prefixItems)?.length ?? 0
  if (rest === false) lines.push(`if (d.length > ${start}) ${generator.fail}`)
  else if (rest !== undefined && !Array.isArray(rest)) {
    const index = generator.unique('i')
    const check = generator.descend(rest as JsonSchemaObject | boolean, `d[${index}]`, { text: '/', expression: index })
    if (check !== '') lines.push(`for (let ${index} = ${start}; ${index} < d.length; ${index}++) { ${check} }`)
  }
  if (schema.uniqueItems === true) {
    lines.push(`if (d.length > 1 && !U(d, ${generator.maxDepthSource})) ${generator.fail}`)
  }
  return lines
})

/** Keywords of an object schema whose closure is just the fused object shape (see `object-level-issues.ts`). */
const OBJECT_SHAPE_KEYWORDS = new Set(['type', 'nullable', 'properties', 'required', 'additionalProperties'])

function isPlainObjectShape(schema: JsonSchemaObject): boolean {
  if (schema.properties === undefined || typeof schema.additionalProperties === 'object') return false
  return Object.keys(schema).every((keyword) => OBJECT_SHAPE_KEYWORDS.has(keyword) || addsNoCheck(keyword))
}

const objectEmitter = forKind('object', (schema, generator) => {
  const lines: string[] = []
  const properties = schema.properties ?? {}
  const declared = Object.keys(properties)
  const required = new Set(schema.required ?? [])
  const plain = isPlainObjectShape(schema)
  // A missing required key is an object-level failure once no later declared property can fail.
  const lastChecked = declared.findLastIndex((key) => properties[key] !== true)
  declared.forEach((key, index) => {
    const child = properties[key]!
    const name = JSON.stringify(key)
    const isRequired = required.delete(key)
    if (child === true && !isRequired) return
    // Keys Object.prototype also answers (constructor, toString, __proto__…) need an own-key test; for the rest
    // a direct read suffices on JSON objects, whose prototype is a clean Object.prototype.
    const own = Reflect.has(Object.prototype, key) ? ` && O(d, ${name})` : ''
    lines.push(`const p${index} = d[${name}];`, `if (p${index} !== undefined${own}) {`)
    lines.push(generator.descend(child, `p${index}`, constantPiece(key)))
    lines.push(isRequired ? `} else ${generator.failOn('required', plain && index >= lastChecked)}` : '}')
  })
  for (const key of required) lines.push(`if (!O(d, ${JSON.stringify(key)})) ${generator.failOn('required', plain)}`)
  const additional = schema.additionalProperties
  if (additional !== undefined && additional !== true) {
    const k = generator.unique('k')
    const known =
      declared.length === 0
        ? 'false'
        : declared.length <= 8
          ? declared.map((key) => `${k} === ${JSON.stringify(key)}`).join(' || ')
          : `${generator.constant(new Set(declared))}.has(${k})`
    const onExtra =
      additional === false
        ? generator.failOn('additionalProperties', plain)
        : generator.descend(additional, `d[${k}]`, { text: '', expression: `P(${k})` })
    lines.push(`for (const ${k} in d) { if (!(${known}) && O(d, ${k})) { ${onExtra} } }`)
  }
  if (schema.propertyNames !== undefined && schema.propertyNames !== true) {
    const k = generator.unique('k')
    lines.push(
      `for (const ${k} in d) if (O(d, ${k}) && !${generator.test(schema.propertyNames, k, false)}) ${generator.fail}`,
    )
  }
  if (schema.minProperties !== undefined) {
    lines.push(`if (Object.keys(d).length < ${finite(schema.minProperties)}) ${generator.fail}`)
  }
  if (schema.maxProperties !== undefined) {
    lines.push(`if (Object.keys(d).length > ${finite(schema.maxProperties)}) ${generator.fail}`)
  }
  return lines
})

/** In the order the checks run; explain mode reports the first node that fails in this order. */
export const generatedKeywordEmitters: readonly KeywordEmitter[] = [
  typeEmitter,
  valueEmitter,
  combinatorEmitter,
  stringEmitter,
  numberEmitter,
  arrayEmitter,
  objectEmitter,
]
