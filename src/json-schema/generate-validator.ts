import { CodeGenerator } from './code-generator.js'
import type { ResolvedCompileOptions } from './compile-context.js'
import { deepEqual } from './deep-equal.js'
import { generatedKeywordEmitters } from './generated-keywords.js'
import type { JsonSchemaNode, JsonSchemaObject } from './node.js'
import { isMultipleOf } from './number-keywords.js'
import { codePointLength } from './string-keywords.js'
import { pointerPiece } from './validation-state.js'

/** Where a value first fails, as found by the generated explain functions. */
export interface FirstFailure {
  /** The failing schema node, or `FALSE_NODE` / `DEPTH_NODE`. */
  node: JsonSchemaObject | number
  value: unknown
  /** Length of the instance path to `value`. */
  depth: number
  /** JSON pointer of `value`, and of its parent. */
  pointer: string
  parentPointer: string
}

export interface GeneratedValidator {
  isValid(value: unknown): boolean
  /**
   * Validates with the explaining functions (as fast as `isValid` on valid input): undefined when valid, else the
   * first failing node and the pointer to it. The returned object is reused.
   * A node of `NOT_RECORDED` means the generated code failed without saying where (callers fall back).
   */
  check(value: unknown): FirstFailure | undefined
}

function allUnique(items: readonly unknown[], depthBudget: number): boolean {
  for (let right = 1; right < items.length; right++) {
    for (let left = 0; left < right; left++) if (deepEqual(items[left], items[right], depthBudget)) return false
  }
  return true
}

export const NOT_RECORDED = -3

interface Recorder {
  node: number
  value: unknown
}

type Factory = (
  c: unknown[],
  L: typeof codePointLength,
  M: typeof isMultipleOf,
  E: typeof deepEqual,
  U: typeof allUnique,
  O: typeof Object.hasOwn,
  X: (node: number, value: unknown) => false,
  S: string[],
  P: typeof pointerPiece,
) => readonly [(value: unknown) => boolean, (value: unknown) => boolean]

/**
 * Generates the per-schema functions for a schema `compileSchema` has accepted. Returns undefined where
 * `new Function` is unavailable (a Content-Security-Policy without unsafe-eval); the closure tree then works alone.
 */
export function generateValidator(
  root: JsonSchemaNode,
  options: ResolvedCompileOptions,
): GeneratedValidator | undefined {
  try {
    const generator = new CodeGenerator(root, options, generatedKeywordEmitters)
    const rootTest = (mode: 'answer' | 'explain') =>
      typeof root === 'boolean' ? `() => ${root}` : `(d) => ${generator.functionName(root, mode)}(d, 0, 0)`
    const answer = rootTest('answer')
    const explain = rootTest('explain')
    const source = `${generator.emitAll()}\nreturn [${answer}, ${explain}];`
    const factory = new Function('c', 'L', 'M', 'E', 'U', 'O', 'X', 'S', 'P', source) as Factory
    const recorder: Recorder = { node: NOT_RECORDED, value: undefined }
    const segments: string[] = []
    const record = (node: number, value: unknown): false => {
      recorder.node = node
      recorder.value = value
      return false
    }
    const [isValid, explainRun] = factory(
      generator.constants,
      codePointLength,
      isMultipleOf,
      deepEqual,
      allUnique,
      Object.hasOwn,
      record,
      segments,
      pointerPiece,
    )
    const nodes = generator.nodes
    const failure: FirstFailure = { node: NOT_RECORDED, value: undefined, depth: 0, pointer: '', parentPointer: '' }
    return {
      isValid,
      check(value) {
        recorder.node = NOT_RECORDED
        recorder.value = value
        if (explainRun(value)) return undefined
        const depth = segments.length
        let parentPointer = ''
        for (let index = depth - 1; index > 0; index--) parentPointer += segments[index]!
        failure.parentPointer = parentPointer
        failure.pointer = depth === 0 ? '' : parentPointer + segments[0]!
        while (segments.length > 0) segments.pop()
        failure.node = recorder.node >= 0 ? nodes[recorder.node]! : recorder.node
        failure.value = recorder.value
        failure.depth = depth
        return failure
      },
    }
  } catch {
    return undefined
  }
}
