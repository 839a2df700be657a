import type { ResolvedCompileOptions } from './compile-context.js'
import type { JsonSchemaNode, JsonSchemaObject } from './node.js'
import { resolveReference } from './resolve-reference.js'

/**
 * Emits one JavaScript function per schema node, in two modes sharing every emitter:
 * - `answer` functions (`v…`) only say whether the value is valid;
 * - `explain` functions (`e…`) record at the first failure which check failed (`X`, an index into `reasons`) and,
 *   while unwinding, prepend the instance path to it (`R.pointer`), so describing needs no second walk.
 *
 * Nothing from a schema reaches the source except numbers checked finite and strings through JSON.stringify;
 * regular expressions, sets and deep values travel in `constants` (`c[i]`).
 */
export type Mode = 'answer' | 'explain'

/** Node index recorded when a `false` schema rejects a value, and when nesting exceeds `maxDepth`. */
export const FALSE_NODE = -1
export const DEPTH_NODE = -2

export const KIND_TESTS = {
  string: 'typeof d === "string"',
  number: 'typeof d === "number"',
  integer: 'Number.isInteger(d)',
  boolean: 'typeof d === "boolean"',
  null: 'd === null',
  array: 'Array.isArray(d)',
  object: '(typeof d === "object" && d !== null && !Array.isArray(d))',
} as const

export type KeywordEmitter = (schema: JsonSchemaObject, generator: CodeGenerator) => string[]

/** One place where an explain function can fail. */
export interface FailureReason {
  /** Index in `nodes` of the failing schema node. */
  readonly node: number
  /** The keyword that failed, or '' when only the closure tree can word it. */
  readonly keyword: string
  /** Nothing after this check in the node's function can fail, so it is the node's only issue. */
  last: boolean
  /** A required or additional-property failure of an object whose present properties were all checked before. */
  readonly objectLevel: boolean
}

/** The source of a constant pointer piece for a known key or index: `"/a~1b"`. */
export function pieceLiteral(segment: string | number): string {
  return JSON.stringify(`/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`)
}

export function finite(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error('not a finite number')
  return `(${String(value)})`
}

export class CodeGenerator {
  readonly constants: unknown[] = []
  readonly nodes: JsonSchemaObject[] = []
  readonly functions: string[] = []
  readonly reasons: FailureReason[] = []
  readonly referenceLimit: number
  mode: Mode = 'answer'
  /** Index in `nodes` of the node whose body is being emitted. */
  current = 0
  /** The reason registered last in the current function, or -1 once something that can fail followed it. */
  private lastReason = -1
  private readonly names = new Map<JsonSchemaNode, number>()
  private readonly emitted = new Set<string>()
  private readonly pending: [Mode, JsonSchemaObject, number][] = []

  constructor(
    readonly root: JsonSchemaNode,
    readonly options: ResolvedCompileOptions,
    private readonly emitters: readonly KeywordEmitter[],
  ) {
    this.referenceLimit = Number(finite(options.maxDepth).slice(1, -1)) * 8 + 16
  }

  constant(value: unknown): string {
    this.constants.push(value)
    return `c[${this.constants.length - 1}]`
  }

  /** The statement that ends the current function with "invalid", for a failure only the closure tree words. */
  get fail(): string {
    return this.failOn('')
  }

  /** The statement that ends the current function with "invalid" because `keyword` failed. */
  failOn(keyword: string, objectLevel = false): string {
    if (this.mode === 'answer') return 'return false;'
    this.lastReason = this.reasons.length
    this.reasons.push({ node: this.current, keyword, last: false, objectLevel })
    return `return X(${this.lastReason}, d, depth);`
  }

  /** `prefix + index` of the function for an object schema in `mode`, queued for emission on first use. */
  functionName(schema: JsonSchemaObject, mode: Mode): string {
    let index = this.names.get(schema)
    if (index === undefined) {
      index = this.nodes.length
      this.nodes.push(schema)
      this.names.set(schema, index)
    }
    const name = `${mode === 'answer' ? 'v' : 'e'}${index}`
    if (!this.emitted.has(name)) {
      this.emitted.add(name)
      this.pending.push([mode, schema, index])
    }
    return name
  }

  /** An answer-only test of `schema` against the expression `value` (for anyOf, oneOf, not, propertyNames). */
  test(schema: JsonSchemaNode, value: string, descend: boolean): string {
    if (typeof schema === 'boolean') return String(schema)
    return `${this.functionName(schema, 'answer')}(${value}, ${descend ? 'depth + 1' : 'depth'}, refs)`
  }

  /** Validates a member of the value; `piece` is an expression for its escaped pointer piece (`"/key"`). */
  descend(schema: JsonSchemaNode, value: string, piece: string): string {
    if (schema === true) return ''
    if (this.mode === 'answer') return `if (!${this.test(schema, value, true)}) return false;`
    this.lastReason = -1
    const check =
      schema === false
        ? `X(${FALSE_NODE}, ${value}, depth + 1)`
        : `${this.functionName(schema, 'explain')}(${value}, depth + 1, refs)`
    return `if (!${check}) { R.pointer = ${piece} + R.pointer; return false; }`
  }

  /** Validates the same value against another schema (allOf branches, `$ref` targets). */
  same(schema: JsonSchemaNode, refs = 'refs'): string {
    if (schema === true) return ''
    this.lastReason = -1
    if (schema === false) return this.mode === 'answer' ? 'return false;' : `return X(${FALSE_NODE}, d, depth);`
    return `if (!${this.functionName(schema, this.mode)}(d, depth, ${refs})) return false;`
  }

  reference(ref: string): string {
    const rootId =
      typeof this.root === 'object' && typeof this.root.$id === 'string' ? this.root.$id.replace(/#$/, '') : undefined
    const target = resolveReference(this.root, ref, rootId, '').schema as JsonSchemaNode
    return `if (refs >= ${this.referenceLimit}) ${this.fail}\n${this.same(target, 'refs + 1')}`
  }

  /** Emits every queued function; returns the source of all of them. */
  emitAll(): string {
    for (let next = this.pending.shift(); next !== undefined; next = this.pending.shift()) {
      const [mode, schema, index] = next
      this.mode = mode
      this.current = index
      this.lastReason = -1
      const depthFail = mode === 'answer' ? 'return false;' : `return X(${DEPTH_NODE}, d, depth);`
      const lines = [`if (depth > ${finite(this.options.maxDepth)}) ${depthFail}`]
      for (const emit of this.emitters) lines.push(...emit(schema, this))
      if (this.lastReason >= 0) this.reasons[this.lastReason]!.last = true
      this.functions.push(
        `function ${mode === 'answer' ? 'v' : 'e'}${index}(d, depth, refs) {\n${lines.join('\n')}\nreturn true;\n}`,
      )
    }
    return this.functions.join('\n')
  }
}
