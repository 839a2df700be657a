import { CodeGenerator } from './code-generator.js'
import { codePointLength } from './code-point-length.js'
import type { ResolvedCompileOptions } from './compile-context.js'
import { deepEqual } from './deep-equal.js'
import type { FailureIssues } from './failure-issues.js'
import { type FailureReason, type FirstFailure, NOT_RECORDED } from './failure-reason.js'
import { codeGenerationForbidden, functionFromSource } from './generated-function.js'
import { emitKeywordChecks } from './generated-keywords.js'
import type { JsonSchemaNode, JsonSchemaObject } from './node.js'
import { isMultipleOf } from './number-keywords.js'
import type { ValidationResult } from './validation-result.js'
import { pointerPiece } from './validation-state.js'

export interface GeneratedValidator {
  /**
   * One generated function that validates with the explaining functions (valid input pays nothing for them): no
   * call layers between the caller and the checks, and call sites that stay monomorphic per schema. A failure is
   * worded by `describers[reason]` when the caller has prepared one that finds issues, else by `onFailure`; a
   * reason of `NOT_RECORDED` there means the generated code failed without saying where.
   */
  entry(
    valid: ValidationResult,
    describers: readonly (FailureIssues | null | undefined)[],
    onFailure: (value: unknown, failure: FirstFailure) => ValidationResult,
  ): (value: unknown) => ValidationResult
  /** Per failure reason: the node and keyword that failed. */
  readonly reasons: readonly FailureReason[]
  /** The schema nodes reasons point into. */
  readonly nodes: readonly JsonSchemaObject[]
}

function allUnique(items: readonly unknown[], depthBudget: number): boolean {
  for (let right = 1; right < items.length; right++) {
    for (let left = 0; left < right; left++) if (deepEqual(items[left], items[right], depthBudget)) return false
  }
  return true
}

/** The helpers the generated source calls, by the names it calls them. */
const helpers = {
  codePointLength,
  isMultipleOf,
  deepEqual,
  allUnique,
  hasOwn: Object.hasOwn,
  pointerPiece,
}
const FACTORY_PARAMETERS = ['constants', 'failure', ...Object.keys(helpers)]
const helperValues = Object.values(helpers)

type Factory = (constants: unknown[], failure: FirstFailure, ...helperValues: unknown[]) => GeneratedValidator['entry']

/**
 * Generates the per-schema functions for a schema `compileSchema` has accepted. Returns undefined where the host
 * forbids `new Function` (see `generated-function.ts`); the closure tree then works alone. Anything else that goes
 * wrong here is a bug and is thrown.
 */
export function generateValidator(
  root: JsonSchemaNode,
  options: ResolvedCompileOptions,
): GeneratedValidator | undefined {
  if (codeGenerationForbidden()) return undefined
  const generator = new CodeGenerator(root, options, emitKeywordChecks)
  // Only the explaining functions run from the root; answer functions exist where a union or `not` tries a branch.
  const rootCall = typeof root === 'boolean' ? String(root) : `${generator.functionName(root, 'explain')}(data, 0, 0)`
  const record =
    'function recordFailure(reason, data, depth, pointer, head) { failure.reason = reason; failure.value = data; ' +
    'failure.depth = depth; failure.pointer = pointer; failure.head = head; return false; }'
  // The record starts clean on every call (a failure that records nothing must not read an old one), and lets
  // go of the failing value once it is described.
  const entrySource = `(valid, describers, onFailure) => (data) => {
failure.reason = ${NOT_RECORDED}; failure.pointer = "";
if (${rootCall}) return valid;
const describe = failure.reason >= 0 ? describers[failure.reason] : undefined;
const issues = describe ? describe(failure.value, failure.pointer, failure.head) : undefined;
const result = issues !== undefined && issues.length > 0 ? { valid: false, issues } : onFailure(data, failure);
failure.value = undefined;
return result;
}`
  const source = `${record}\n${generator.emitAll()}\nreturn ${entrySource};`
  const factory = functionFromSource<Factory>(FACTORY_PARAMETERS, source)
  if (factory === undefined) return undefined
  const failure: FirstFailure = { reason: NOT_RECORDED, value: undefined, depth: 0, pointer: '', head: 0 }
  const entry = factory(generator.constants, failure, ...helperValues)
  return { entry, reasons: generator.reasons, nodes: generator.nodes }
}
