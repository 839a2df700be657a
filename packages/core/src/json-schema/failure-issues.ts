import type { FailureReason } from './failure-reason.js'
import { singleIssueDetails } from './keyword-details.js'
import type { JsonSchemaObject } from './node.js'
import { objectLevelIssues } from './object-level-issues.js'
import type { ValidationIssue } from './validation-result.js'
import { issuePrefix, issueWithMessage } from './validation-state.js'

/**
 * Words the failure the generated code found, from the failing value and its pointer alone; `head` is 1 when the
 * reason's constant message start applies (see `FailureReason.head`).
 */
export type FailureIssues = (value: unknown, pointer: string, head: number) => ValidationIssue[]

/**
 * The issues for a failure reason when they follow from the failing keyword without running the closure tree:
 * a failed `type`, or a simple keyword that was the node's last possible failure (every other check of the node
 * passed, so the closure tree would report exactly this one), or the object level of a plain object shape.
 * Undefined when only the closure tree can describe the node.
 */
export function failureIssues(reason: FailureReason, node: JsonSchemaObject): FailureIssues | undefined {
  if (reason.objectLevel) return sharedObjectLevelIssues(node, reason.head ?? '')
  const makeDetail = singleIssueDetails[reason.keyword]
  if (makeDetail === undefined || (reason.keyword !== 'type' && !reason.last)) return undefined
  const detail = makeDetail(node)
  const keyword = reason.keyword
  // The message start and the keyword's constant text joined once, for failures at a constant pointer.
  const start = reason.head === undefined ? '' : reason.head + detail.prefix
  return (value, pointer, head) => {
    const message = detail.append(head === 1 ? start : issuePrefix(pointer) + detail.prefix, value)
    return [issueWithMessage(pointer, keyword, message)]
  }
}

/** Object-level failure sites of one node (its required keys, its extra keys) share one generated function. */
const objectLevelByNode = new WeakMap<JsonSchemaObject, Map<string, FailureIssues>>()

function sharedObjectLevelIssues(node: JsonSchemaObject, constantHead: string): FailureIssues {
  let byHead = objectLevelByNode.get(node)
  if (byHead === undefined) {
    byHead = new Map()
    objectLevelByNode.set(node, byHead)
  }
  let issues = byHead.get(constantHead)
  if (issues === undefined) {
    issues = objectLevelIssues(node, constantHead)
    byHead.set(constantHead, issues)
  }
  return issues
}
