import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import type { CompileContext, ResolvedCompileOptions } from './compile-context.js'
import { compileNode, rejectAll } from './compile-node.js'
import { type FailureIssues, failureIssues } from './failure-issues.js'
import { DEPTH_NODE, FALSE_NODE, type FirstFailure, NOT_RECORDED } from './failure-reason.js'
import { type GeneratedValidator, generateValidator } from './generate-validator.js'
import type { JsonSchemaNode } from './node.js'
import { resolveReference } from './resolve-reference.js'
import { SchemaCompileError } from './schema-compile-error.js'
import type {
  CompiledSchema,
  CompileOptions,
  UnknownKeyword,
  ValidationIssue,
  ValidationResult,
} from './validation-result.js'
import { type Check, createState, report } from './validation-state.js'

export type {
  CompiledSchema,
  CompileOptions,
  UnknownKeyword,
  ValidationIssue,
  ValidationResult,
} from './validation-result.js'

const VALID: ValidationResult = Object.freeze({ valid: true })
const DEFAULT_MAX_DEPTH = 64

/**
 * Compiles a schema of our JSON Schema subset once into a tree of small closures (one per keyword, chosen from
 * the keyword table): this is the strict/lenient gate, and it can describe any failure in words.
 *
 * On the first `validate` call the same schema is also turned into generated JavaScript (`code-generator.ts`),
 * which then becomes `validate` itself: it answers valid input at hand-written speed and, for invalid input,
 * finds the first failing schema node and its instance path. That node's failure is worded straight from the
 * failing keyword (`failure-issues.ts`, `object-level-issues.ts`) or else by the node's closure, so issues come
 * from the first failing node (up to 5 there), like Ajv's first error. With `codegen: false`, or where
 * `new Function` is forbidden, the closure tree alone answers and reports up to 5 issues across the whole value.
 *
 * Decisions worth knowing: `nullable: true` adds "null" to `type` (OpenAPI 3.0, as Ajv); `$ref` siblings apply
 * (2020-12 semantics, also for draft-07 schemas); unreachable `$defs` are never compiled, so strict mode does not
 * look into them; `pattern`s run on a linear-time engine, and one it cannot run (lookaround, backreferences) is
 * refused in strict mode and listed in `unknownKeywords` in lenient mode (see `linear-regex.ts`).
 */
export function compileSchema(node: JsonSchemaNode, options: CompileOptions = {}): CompiledSchema {
  const resolved: ResolvedCompileOptions = {
    lenient: options.lenient ?? false,
    assertFormats: options.assertFormats ?? false,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    codegen: options.codegen ?? true,
  }
  if (!Number.isSafeInteger(resolved.maxDepth) || resolved.maxDepth < 1) {
    throw new InvalidArgumentError(`maxDepth must be a positive integer, received ${String(resolved.maxDepth)}`)
  }
  const unknownKeywords: UnknownKeyword[] = []
  const compiled = new Map<object, Check>()
  const pendingLinks: (() => void)[] = []
  const rootId = typeof node === 'object' && typeof node.$id === 'string' ? node.$id.replace(/#$/, '') : undefined
  // Bounds `$ref` chains that recurse without stepping into the value (`{"$ref": "#"}` inside an `allOf`).
  const referenceLimit = resolved.maxDepth * 8 + 16

  const context: CompileContext = {
    options: resolved,
    compile(schema, schemaPath) {
      if (typeof schema !== 'object' || schema === null) return compileNode(schema, context, schemaPath)
      const known = compiled.get(schema)
      if (known !== undefined) return known
      const check = compileNode(schema, context, schemaPath)
      compiled.set(schema, check)
      return check
    },
    reference(ref, schemaPath) {
      const target = resolveReference(node, ref, rootId, schemaPath)
      let linked: Check | undefined
      pendingLinks.push(() => {
        linked = context.compile(target.schema, target.pointer)
      })
      return (value, state) => {
        if (state.refDepth >= referenceLimit) {
          if (state.silent === 0) {
            report(state, '$ref', `${ref} recurses more than ${referenceLimit} times without descending into the value`)
          }
          return false
        }
        state.refDepth++
        const valid = linked!(value, state)
        state.refDepth--
        return valid
      }
    },
    unsupported(keyword, schemaPath, reason) {
      if (!resolved.lenient) throw new SchemaCompileError(keyword, schemaPath, reason)
      unknownKeywords.push({ path: schemaPath, keyword })
    },
  }

  const root = context.compile(node, '')
  for (let index = 0; index < pendingLinks.length; index++) pendingLinks[index]!()
  const state = createState(resolved.maxDepth)

  /** Per failure reason of the generated code: its wording without the closure tree, or null (lazily). */
  const fastIssues: (FailureIssues | null | undefined)[] = []
  /** Per generated node: its closure (lazily). */
  const nodeChecks: (Check | undefined)[] = []

  const prepareFastIssues = (validator: GeneratedValidator, reason: number): FailureIssues | null => {
    const known = validator.reasons[reason]!
    const fast = failureIssues(known, validator.nodes[known.node]!) ?? null
    fastIssues[reason] = fast
    return fast
  }

  /** Issues for the first failure the generated code found, worded by the closure of the failing node alone. */
  const describeFailure = (validator: GeneratedValidator, failure: FirstFailure): ValidationIssue[] => {
    const reason = failure.reason
    state.silent = 0
    state.refDepth = 0
    state.depth = failure.depth
    state.baseDepth = failure.depth
    state.basePointer = failure.pointer
    if (reason === DEPTH_NODE) {
      state.depth = state.baseDepth = Math.max(0, failure.depth - 1)
      state.basePointer = failure.pointer.slice(0, Math.max(0, failure.pointer.lastIndexOf('/')))
      report(state, 'depth', `value nests deeper than ${resolved.maxDepth} levels`)
    } else if (reason === FALSE_NODE) {
      rejectAll(failure.value, state)
    } else {
      const node = validator.reasons[reason]!.node
      let check = nodeChecks[node]
      if (check === undefined) {
        check = compiled.get(validator.nodes[node]!)
        nodeChecks[node] = check
      }
      check?.(failure.value, state)
    }
    state.baseDepth = 0
    state.basePointer = ''
    const issues = state.issues
    state.issues = []
    return issues
  }

  /** The closure tree alone: the reference answer, and the whole validator where no code is generated. */
  const validateWithClosures = (value: unknown): ValidationResult => {
    state.depth = 0
    state.silent = 0
    state.refDepth = 0
    if (state.issues.length > 0) state.issues = []
    if (root(value, state)) return VALID
    const issues = state.issues
    state.issues = []
    if (issues.length === 0) report({ ...state, issues }, 'schema', 'the value does not match the schema')
    return { valid: false, issues }
  }

  /** Words the failure the generated code found; the closure tree answers whenever that cannot be done. */
  const describeGenerated = (validator: GeneratedValidator, value: unknown, failure: FirstFailure) => {
    const reason = failure.reason
    // A prepared wording already ran in the generated entry; only a reason failing for the first time gets here
    // with none, and is worded now.
    if (reason >= 0 && fastIssues[reason] === undefined) {
      const issues = prepareFastIssues(validator, reason)?.(failure.value, failure.pointer, failure.head)
      if (issues !== undefined && issues.length > 0) return { valid: false, issues } as const
    }
    if (reason !== NOT_RECORDED) {
      if (state.issues.length > 0) state.issues = []
      const issues = describeFailure(validator, failure)
      if (issues.length > 0) return { valid: false, issues } as const
    }
    return validateWithClosures(value)
  }

  /** Set on the first call, so tools that are registered but never called cost only the closure compile. */
  let fullSpeed: ((value: unknown) => ValidationResult) | undefined
  const compiledSchema: CompiledSchema = {
    unknownKeywords,
    validate(value) {
      if (fullSpeed === undefined) {
        const generated = resolved.codegen ? generateValidator(node, resolved) : undefined
        fullSpeed =
          generated === undefined
            ? validateWithClosures
            : generated.entry(VALID, fastIssues, (input, failure) => describeGenerated(generated, input, failure))
        // Later calls through the object go straight to the generated function (unless the caller froze it).
        Reflect.set(compiledSchema, 'validate', fullSpeed)
      }
      return fullSpeed(value)
    },
  }
  return compiledSchema
}
