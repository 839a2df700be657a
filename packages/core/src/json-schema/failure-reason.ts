/** What the generated explain functions record about the first failure they find. */

/** Node index recorded when a `false` schema rejects a value, and when nesting exceeds `maxDepth`. */
export const FALSE_NODE = -1
export const DEPTH_NODE = -2

/** Recorded when generated code failed without saying where (only the closure tree can then answer). */
export const NOT_RECORDED = -3

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
  /**
   * `at <pointer>: ` when the pointer from the function's value is constant here; it is the whole message start
   * when the failure reports `head` 1 (no caller had to prepend a piece).
   */
  readonly head: string | undefined
}

/** Where a value first fails, as found by the generated explain functions. The same object is reused. */
export interface FirstFailure {
  /** Index into `reasons`, or `FALSE_NODE` / `DEPTH_NODE`, or `NOT_RECORDED`. */
  reason: number
  value: unknown
  /** Length of the instance path to `value`. */
  depth: number
  /** JSON pointer of `value`. */
  pointer: string
  /** 1 when the reason's `head` is the message start for `pointer` (no caller prepended a piece), else 0. */
  head: number
}
