import type { ResolvedCompileOptions } from './compile-context.js'
import { DEPTH_NODE, FALSE_NODE, type FailureReason } from './failure-reason.js'
import type { JsonSchemaNode, JsonSchemaObject } from './node.js'
import {
  appendPiece,
  constantPointer,
  type PointerPiece,
  type PointerSource,
  pointerSource,
  ROOT_POINTER,
} from './pointer-expression.js'
import { resolveReference } from './resolve-reference.js'
import { finite } from './source-literals.js'

/**
 * Emits JavaScript for a schema, in two modes sharing every emitter:
 * - `answer` functions (`answer<node>`) only say whether the value is valid (unions and `not` try branches with
 *   them);
 * - `explain` functions (`explain<node>`) validate and, at the first failure, record which check failed (an index
 *   into `reasons`) with the pointer to it in `failure`, so describing needs no second walk.
 * A member's schema is written in place inside its parent's function (up to `INLINE_LEVELS` deep), so a failure
 * there knows its pointer as one expression; across calls (`$ref`, shared nodes) callers prepend their piece.
 *
 * Nothing from a schema reaches the source except numbers checked finite and strings through JSON.stringify;
 * regular expressions, sets and deep values travel in `constants` (`constants[i]`).
 */
export type Mode = 'answer' | 'explain'

/** The source lines of one keyword's checks against `data` (called only when the schema has the keyword). */
export type KeywordEmitter = (schema: JsonSchemaObject, generator: CodeGenerator) => string[]

/** The checks of all of a node's keywords, each line after a newline (`generated-keywords.ts`). */
export type NodeChecksEmitter = (schema: JsonSchemaObject, generator: CodeGenerator) => string

/** Members are inlined this many levels below a function's value; deeper ones get calls again. */
const INLINE_LEVELS = 8

export class CodeGenerator {
  readonly constants: unknown[] = []
  readonly nodes: JsonSchemaObject[] = []
  readonly functions: string[] = []
  readonly reasons: FailureReason[] = []
  readonly referenceLimit: number
  mode: Mode = 'answer'
  /** Index in `nodes` of the node whose body is being emitted. */
  current = 0
  /** The reason registered last in the current node, or -1 once something that can fail followed it. */
  private lastReason = -1
  /** How far the node being emitted is inlined below its function's value: its depth is `depth + offset`. */
  private depthOffset = 0
  /** Pointer from the function's value to the inlined node's value. */
  private here: PointerSource = ROOT_POINTER
  /** How many levels the node being emitted is inlined below its function. */
  private inlineLevel = 0
  private uniqueCount = 0
  /** `pointer()` and `messageHead()` for `here`, built once per inlined node (null: not yet). */
  private hereSource: string | null = null
  private hereHead: string | undefined | null = null
  /** `options.maxDepth` as source. */
  readonly maxDepthSource: string
  /** `mode:node` of every node already written in place once; a shared node is called, not copied again. */
  private readonly inlined = new Set<string>()
  private readonly names = new Map<JsonSchemaNode, number>()
  private readonly emitted = new Set<string>()
  private readonly pending: [Mode, JsonSchemaObject, number][] = []

  constructor(
    readonly root: JsonSchemaNode,
    readonly options: ResolvedCompileOptions,
    private readonly emitChecks: NodeChecksEmitter,
  ) {
    this.maxDepthSource = finite(options.maxDepth)
    this.referenceLimit = options.maxDepth * 8 + 16
  }

  constant(value: unknown): string {
    this.constants.push(value)
    return `constants[${this.constants.length - 1}]`
  }

  /** The statement that ends the current function with "invalid", for a failure only the closure tree words. */
  get fail(): string {
    return this.failOn('')
  }

  /** The statement that ends the current function with "invalid" because `keyword` failed. */
  failOn(keyword: string, objectLevel = false): string {
    if (this.mode === 'answer') return 'return false;'
    this.lastReason = this.reasons.length
    const head = this.messageHead()
    this.reasons.push({ node: this.current, keyword, last: false, objectLevel, head })
    return `return recordFailure(${this.lastReason}, data, ${this.depth()}, ${this.pointer()}, ${head === undefined ? 0 : 1});`
  }

  /** A name no other generated variable has (loop variables must not shadow those a pointer expression reads). */
  unique(prefix: string): string {
    this.uniqueCount++
    return `${prefix}${this.uniqueCount}`
  }

  /** The depth of the current value, `plus` levels further down. */
  private depth(plus = 0): string {
    const offset = this.depthOffset + plus
    return offset === 0 ? 'depth' : `(depth + ${offset})`
  }

  /** The pointer from the function's value to the current value (then `piece`), as an expression. */
  private pointer(piece?: PointerPiece): string {
    if (piece === undefined) {
      this.hereSource ??= pointerSource(this.here)
      return this.hereSource
    }
    return pointerSource(appendPiece(this.here, piece))
  }

  /**
   * The message start (`at <pointer>: `) when the pointer from the function's value is constant; it holds for
   * the whole instance only if no caller prepends to it, and callers that do clear `failure.head`.
   */
  private messageHead(): string | undefined {
    if (this.hereHead === null) {
      const text = constantPointer(this.here)
      this.hereHead = text === undefined ? undefined : `at ${text === '' ? '(root)' : text}: `
    }
    return this.hereHead
  }

  private nodeIndex(schema: JsonSchemaObject): number {
    let index = this.names.get(schema)
    if (index === undefined) {
      index = this.nodes.length
      this.nodes.push(schema)
      this.names.set(schema, index)
    }
    return index
  }

  /** `prefix + index` of the function for an object schema in `mode`, queued for emission on first use. */
  functionName(schema: JsonSchemaObject, mode: Mode): string {
    const index = this.nodeIndex(schema)
    const name = `${mode}${index}`
    if (!this.emitted.has(name)) {
      this.emitted.add(name)
      this.pending.push([mode, schema, index])
    }
    return name
  }

  /** An answer-only test of `schema` against the expression `value` (for anyOf, oneOf, not, propertyNames). */
  test(schema: JsonSchemaNode, value: string, descend: boolean): string {
    if (typeof schema === 'boolean') return String(schema)
    return `${this.functionName(schema, 'answer')}(${value}, ${this.depth(descend ? 1 : 0)}, refs)`
  }

  /** Validates a member of the value (the expression `value`) whose pointer adds `piece`. */
  descend(schema: JsonSchemaNode, value: string, piece: PointerPiece): string {
    if (schema === true) return ''
    if (typeof schema === 'object' && this.inlineLevel < INLINE_LEVELS) {
      const key = `${this.mode}:${this.nodeIndex(schema)}`
      if (!this.inlined.has(key)) {
        this.inlined.add(key)
        return this.inline(schema, value, piece)
      }
    }
    if (this.mode === 'answer') return `if (!${this.test(schema, value, true)}) return false;`
    this.lastReason = -1
    if (schema === false)
      return `return recordFailure(${FALSE_NODE}, ${value}, ${this.depth(1)}, ${this.pointer(piece)}, 0);`
    const check = `${this.functionName(schema, 'explain')}(${value}, ${this.depth(1)}, refs)`
    return `if (!${check}) { failure.pointer = ${this.pointer(piece)} + failure.pointer; failure.head = 0; return false; }`
  }

  /**
   * The checks of a member's schema written in place, in a block where `data` is the member: no call, and a failure
   * inside knows its pointer from the function's value as one expression (constant for properties).
   */
  private inline(schema: JsonSchemaObject, value: string, piece: PointerPiece): string {
    const saved = { current: this.current, here: this.here, source: this.hereSource, head: this.hereHead }
    const temporary = this.unique('member')
    this.current = this.nodeIndex(schema)
    this.depthOffset++
    this.inlineLevel++
    this.here = appendPiece(this.here, piece)
    this.hereSource = null
    this.hereHead = null
    const body = this.body(schema)
    this.here = saved.here
    this.hereSource = saved.source
    this.hereHead = saved.head
    this.inlineLevel--
    this.depthOffset--
    this.current = saved.current
    this.lastReason = -1
    return `{ const ${temporary} = ${value}; { const data = ${temporary};\n${body}\n} }`
  }

  /** The checks of one node against `data`, starting with the nesting limit. */
  private body(schema: JsonSchemaObject): string {
    this.lastReason = -1
    const depthFail =
      this.mode === 'answer'
        ? 'return false;'
        : `return recordFailure(${DEPTH_NODE}, data, ${this.depth()}, ${this.pointer()}, 0);`
    // Appended, not joined: nested bodies stay string ropes until `new Function` reads the source once.
    let source = `if (${this.depth()} > ${this.maxDepthSource}) ${depthFail}`
    source += this.emitChecks(schema, this)
    if (this.lastReason >= 0) this.reasons[this.lastReason]!.last = true
    return source
  }

  /** Validates the same value against another schema (allOf branches, `$ref` targets). */
  same(schema: JsonSchemaNode, refs = 'refs'): string {
    if (schema === true) return ''
    this.lastReason = -1
    if (this.mode === 'answer') {
      return schema === false
        ? 'return false;'
        : `if (!${this.functionName(schema, 'answer')}(data, ${this.depth()}, ${refs})) return false;`
    }
    if (schema === false) return `return recordFailure(${FALSE_NODE}, data, ${this.depth()}, ${this.pointer()}, 0);`
    const check = `${this.functionName(schema, 'explain')}(data, ${this.depth()}, ${refs})`
    return this.inlineLevel === 0
      ? `if (!${check}) return false;`
      : `if (!${check}) { failure.pointer = ${this.pointer()} + failure.pointer; failure.head = 0; return false; }`
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
      const body = this.body(schema)
      this.functions.push(`function ${mode}${index}(data, depth, refs) {\n${body}\nreturn true;\n}`)
    }
    return this.functions.join('\n')
  }
}
