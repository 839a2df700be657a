import type { ResolvedCompileOptions } from './compile-context.js'
import { deepEqual } from './deep-equal.js'
import { formatCheckers } from './formats.js'
import type { JsonSchemaNode, JsonSchemaObject } from './node.js'
import { isMultipleOf } from './number-keywords.js'
import { PATTERN_INPUT_LIMIT, patternRisk } from './pattern-risk.js'
import { resolveReference } from './resolve-reference.js'
import { codePointLength } from './string-keywords.js'
import type { typeBits } from './type-mask.js'

/**
 * The answer-only twin of the compiled closure tree: one generated function per schema node that returns whether
 * the value is valid, with property reads, type tests and bounds written inline so V8 optimises each schema like
 * hand-written code. It runs first; the closure tree runs only when it says "invalid", to describe the issues.
 *
 * Safety: nothing from the schema is spliced into the source except numbers checked finite at compile time and
 * strings passed through JSON.stringify; regular expressions, enum sets and deep values travel in `constants`.
 * Where `new Function` is unavailable (a CSP without unsafe-eval) generation returns undefined and the closure
 * tree answers alone.
 */
export type ValidityCheck = (value: unknown) => boolean

type Helpers = readonly [
  constants: unknown[],
  length: typeof codePointLength,
  multiple: typeof isMultipleOf,
  equal: typeof deepEqual,
  unique: (items: readonly unknown[], depthBudget: number) => boolean,
  own: (object: object, key: string) => boolean,
]

const HELPER_NAMES = ['c', 'L', 'M', 'E', 'U', 'O'] as const

function allUnique(items: readonly unknown[], depthBudget: number): boolean {
  for (let right = 1; right < items.length; right++) {
    for (let left = 0; left < right; left++) if (deepEqual(items[left], items[right], depthBudget)) return false
  }
  return true
}

const KIND_TESTS = {
  string: 'typeof d === "string"',
  number: 'typeof d === "number"',
  integer: 'Number.isInteger(d)',
  boolean: 'typeof d === "boolean"',
  null: 'd === null',
  array: 'Array.isArray(d)',
  object: '(typeof d === "object" && d !== null && !Array.isArray(d))',
} satisfies Record<keyof typeof typeBits, string>

function literal(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return JSON.stringify(value)
  if (typeof value === 'number' && Number.isFinite(value)) return `(${String(value)})`
  return undefined
}

function finite(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error('not a finite number')
  return `(${String(value)})`
}

class Generator {
  readonly constants: unknown[] = []
  readonly functions: string[] = []
  readonly names = new Map<unknown, string>()
  readonly referenceLimit: number

  constructor(
    readonly root: JsonSchemaNode,
    readonly options: ResolvedCompileOptions,
    readonly rootId: string | undefined,
  ) {
    finite(options.maxDepth)
    this.referenceLimit = options.maxDepth * 8 + 16
  }

  constant(value: unknown): string {
    this.constants.push(value)
    return `c[${this.constants.length - 1}]`
  }

  /** The name of the generated function for `schema`, generating it on first use. */
  function(schema: JsonSchemaNode): string {
    const known = this.names.get(schema)
    if (known !== undefined) return known
    const name = `v${this.names.size}`
    this.names.set(schema, name)
    const body = typeof schema === 'boolean' ? [`return ${schema};`] : this.body(schema)
    const guard = `if (depth > ${this.options.maxDepth}) return false;`
    this.functions.push(`function ${name}(d, depth, refs) {\n${guard}\n${body.join('\n')}\nreturn true;\n}`)
    return name
  }

  call(schema: JsonSchemaNode, value: string, descend: boolean): string {
    if (schema === true) return 'true'
    if (schema === false) return 'false'
    return `${this.function(schema)}(${value}, ${descend ? 'depth + 1' : 'depth'}, refs)`
  }

  body(schema: JsonSchemaObject): string[] {
    const lines: string[] = []
    const types = schema.type === undefined ? undefined : Array.isArray(schema.type) ? [...schema.type] : [schema.type]
    if (types !== undefined && schema.nullable === true && !types.includes('null')) types.push('null')
    if (types !== undefined) {
      lines.push(
        `if (!(${types.map((type) => KIND_TESTS[type as keyof typeof KIND_TESTS]).join(' || ')})) return false;`,
      )
    }
    const only = (kind: 'string' | 'number' | 'array' | 'object') =>
      types?.every((type) => type === kind || (kind === 'number' && type === 'integer')) === true
    const guarded = (kind: 'string' | 'number' | 'array' | 'object', checks: string[]) => {
      if (checks.length === 0) return
      if (only(kind)) lines.push(...checks)
      else lines.push(`if (${KIND_TESTS[kind]}) {`, ...checks, '}')
    }
    for (const type of types ?? []) {
      if (!Object.hasOwn(KIND_TESTS, type)) throw new Error(`unknown type ${String(type)}`)
    }
    lines.push(...this.anyKind(schema))
    guarded('string', this.stringChecks(schema))
    guarded('number', this.numberChecks(schema))
    guarded('array', this.arrayChecks(schema))
    guarded('object', this.objectChecks(schema))
    return lines
  }

  anyKind(schema: JsonSchemaObject): string[] {
    const lines: string[] = []
    if (schema.const !== undefined) {
      const simple = literal(schema.const)
      lines.push(
        simple === undefined
          ? `if (!E(d, ${this.constant(schema.const)}, ${this.options.maxDepth})) return false;`
          : `if (d !== ${simple}) return false;`,
      )
    }
    if (schema.enum !== undefined) {
      const values = schema.enum
      const simple = values.map(literal)
      if (simple.every((text) => text !== undefined) && values.length <= 8) {
        lines.push(`if (!(${simple.map((text) => `d === ${text}`).join(' || ') || 'false'})) return false;`)
      } else if (simple.every((text) => text !== undefined)) {
        lines.push(`if (!${this.constant(new Set(values))}.has(d)) return false;`)
      } else {
        const list = this.constant(values)
        lines.push(`if (!${list}.some((e) => E(d, e, ${this.options.maxDepth}))) return false;`)
      }
    }
    for (const branch of schema.allOf ?? []) lines.push(`if (!${this.call(branch, 'd', false)}) return false;`)
    if (schema.anyOf !== undefined) {
      lines.push(`if (!(${schema.anyOf.map((branch) => this.call(branch, 'd', false)).join(' || ')})) return false;`)
    }
    if (schema.oneOf !== undefined) {
      lines.push('{ let m = 0;')
      for (const branch of schema.oneOf) lines.push(`if (${this.call(branch, 'd', false)} && ++m > 1) return false;`)
      lines.push('if (m !== 1) return false; }')
    }
    if (schema.not !== undefined) lines.push(`if (${this.call(schema.not, 'd', false)}) return false;`)
    if (typeof schema.$ref === 'string') {
      const target = resolveReference(this.root, schema.$ref, this.rootId, '').schema as JsonSchemaNode
      const name = this.function(target)
      lines.push(`if (refs >= ${this.referenceLimit} || !${name}(d, depth, refs + 1)) return false;`)
    }
    return lines
  }

  stringChecks(schema: JsonSchemaObject): string[] {
    const lines: string[] = []
    if (schema.minLength !== undefined) {
      const limit = finite(schema.minLength)
      lines.push(`if (d.length < ${limit} || (d.length < 2 * ${limit} && L(d) < ${limit})) return false;`)
    }
    if (schema.maxLength !== undefined) {
      const limit = finite(schema.maxLength)
      lines.push(`if (d.length > ${limit} && L(d) > ${limit}) return false;`)
    }
    if (typeof schema.pattern === 'string' && patternRisk(schema.pattern) === undefined) {
      const regex = this.constant(new RegExp(schema.pattern, 'u'))
      lines.push(`if (d.length > ${PATTERN_INPUT_LIMIT} || !${regex}.test(d)) return false;`)
    }
    if (
      this.options.assertFormats &&
      typeof schema.format === 'string' &&
      Object.hasOwn(formatCheckers, schema.format)
    ) {
      lines.push(`if (!${this.constant(formatCheckers[schema.format])}(d)) return false;`)
    }
    return lines
  }

  numberChecks(schema: JsonSchemaObject): string[] {
    const lines: string[] = []
    if (schema.minimum !== undefined) lines.push(`if (!(d >= ${finite(schema.minimum)})) return false;`)
    if (schema.maximum !== undefined) lines.push(`if (!(d <= ${finite(schema.maximum)})) return false;`)
    if (schema.exclusiveMinimum !== undefined)
      lines.push(`if (!(d > ${finite(schema.exclusiveMinimum)})) return false;`)
    if (schema.exclusiveMaximum !== undefined)
      lines.push(`if (!(d < ${finite(schema.exclusiveMaximum)})) return false;`)
    if (schema.multipleOf !== undefined) lines.push(`if (!M(d, ${finite(schema.multipleOf)})) return false;`)
    return lines
  }

  arrayChecks(schema: JsonSchemaObject): string[] {
    const lines: string[] = []
    if (schema.minItems !== undefined) lines.push(`if (d.length < ${finite(schema.minItems)}) return false;`)
    if (schema.maxItems !== undefined) lines.push(`if (d.length > ${finite(schema.maxItems)}) return false;`)
    const tuples = [schema.prefixItems, Array.isArray(schema.items) ? schema.items : undefined]
    for (const tuple of tuples) {
      tuple?.forEach((item, index) => {
        if (item !== true)
          lines.push(`if (d.length > ${index} && !${this.call(item, `d[${index}]`, true)}) return false;`)
      })
    }
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items
    const start = (Array.isArray(schema.items) ? schema.items : schema.prefixItems)?.length ?? 0
    if (rest === false) lines.push(`if (d.length > ${start}) return false;`)
    else if (rest !== undefined && rest !== true && !Array.isArray(rest)) {
      const check = this.call(rest as JsonSchemaNode, 'd[i]', true)
      lines.push(`for (let i = ${start}; i < d.length; i++) if (!${check}) return false;`)
    }
    if (schema.uniqueItems === true) lines.push(`if (d.length > 1 && !U(d, ${this.options.maxDepth})) return false;`)
    return lines
  }

  objectChecks(schema: JsonSchemaObject): string[] {
    const lines: string[] = []
    const properties = schema.properties ?? {}
    const declared = Object.keys(properties)
    const required = new Set(schema.required ?? [])
    declared.forEach((key, index) => {
      const child = properties[key]!
      const name = JSON.stringify(key)
      const isRequired = required.delete(key)
      if (child === true && !isRequired) return
      lines.push(`const p${index} = d[${name}];`)
      // Keys Object.prototype also answers (constructor, toString, __proto__…) need an own-key test; for the
      // rest a direct read is enough for JSON objects, whose only prototype is a clean Object.prototype.
      const inherited = Reflect.has(Object.prototype, key)
      lines.push(`if (p${index} !== undefined${inherited ? ` && O(d, ${name})` : ''}) {`)
      if (child !== true) lines.push(`if (!${this.call(child, `p${index}`, true)}) return false;`)
      lines.push(isRequired ? '} else return false;' : '}')
    })
    for (const key of required) lines.push(`if (!O(d, ${JSON.stringify(key)})) return false;`)
    const additional = schema.additionalProperties
    if (additional !== undefined && additional !== true) {
      const known =
        declared.length === 0
          ? 'false'
          : declared.length <= 8
            ? declared.map((key) => `k === ${JSON.stringify(key)}`).join(' || ')
            : `${this.constant(new Set(declared))}.has(k)`
      const failure =
        additional === false ? 'return false;' : `if (!${this.call(additional, 'd[k]', true)}) return false;`
      lines.push(`for (const k in d) { if (!(${known}) && O(d, k)) { ${failure} } }`)
    }
    if (schema.propertyNames !== undefined && schema.propertyNames !== true) {
      lines.push(`for (const k in d) if (O(d, k) && !${this.call(schema.propertyNames, 'k', false)}) return false;`)
    }
    if (schema.minProperties !== undefined) {
      lines.push(`if (Object.keys(d).length < ${finite(schema.minProperties)}) return false;`)
    }
    if (schema.maxProperties !== undefined) {
      lines.push(`if (Object.keys(d).length > ${finite(schema.maxProperties)}) return false;`)
    }
    return lines
  }
}

/**
 * Generates the answer-only validator for a schema that `compileSchema` has already accepted (so keyword values
 * are known to be well formed). Returns undefined when code generation is unavailable or the schema uses a
 * keyword the generator does not cover.
 */
export function generateValidityCheck(
  root: JsonSchemaNode,
  options: ResolvedCompileOptions,
): ValidityCheck | undefined {
  try {
    const rootId = typeof root === 'object' && typeof root.$id === 'string' ? root.$id.replace(/#$/, '') : undefined
    const generator = new Generator(root, options, rootId)
    const entry = generator.function(root)
    const source = `${generator.functions.join('\n')}\nreturn (d) => ${entry}(d, 0, 0);`
    const factory = new Function(...HELPER_NAMES, source) as (...helpers: Helpers) => ValidityCheck
    return factory(generator.constants, codePointLength, isMultipleOf, deepEqual, allUnique, Object.hasOwn)
  } catch {
    return undefined
  }
}
