import type { FailureReason } from './code-generator.js'
import { isPlainText } from './describe-value.js'
import { singleIssueDetails } from './keyword-details.js'
import type { JsonSchemaObject } from './node.js'
import { listKeys } from './object-shape.js'
import type { ValidationIssue } from './validation-result.js'

import { createIssueAt, issuePrefix, issueWithMessage, MAX_ISSUES } from './validation-state.js'

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
  if (reason.objectLevel) return objectLevelIssues(node, reason.head ?? '')
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

/**
 * Unexpected keys, then missing required keys, as the fused object shape reports them once every present
 * declared property is known to be valid (the generated code checked them before this failure).
 */
function objectLevelIssues(node: JsonSchemaObject, constantHead: string): FailureIssues {
  const declared = Object.keys(node.properties ?? {})
  const count = declared.length
  const allowed = `"; allowed properties: ${listKeys(declared)}`
  const closed = node.additionalProperties === false
  const required = node.required ?? []
  const requiredIndex = required.map((key) => declared.indexOf(key))
  // Present declared keys are ticked off in a bit set while scanning the value's keys once.
  const tracked = count <= 31
  const missing = required.map((key) => `missing required property ${JSON.stringify(key)}`)
  return (value, pointer, head) => {
    const object = value as Record<string, unknown>
    const prefix = head === 1 ? constantHead : issuePrefix(pointer)
    const issues: ValidationIssue[] = []
    const keys = Object.keys(object)
    let seen = 0
    for (let position = 0; position < keys.length; position++) {
      const key = keys[position]!
      let index = -1
      for (let candidate = 0; candidate < count; candidate++) {
        if (declared[candidate] === key) {
          index = candidate
          break
        }
      }
      if (index !== -1) {
        if (tracked && object[key] !== undefined) seen |= 1 << index
      } else if (closed && issues.length < MAX_ISSUES) {
        const detail = isPlainText(key)
          ? `unexpected property "${key}${allowed}`
          : `unexpected property ${JSON.stringify(key)}${allowed.slice(1)}`
        issues.push(createIssueAt(prefix, pointer, 'additionalProperties', detail))
      }
    }
    for (let position = 0; position < required.length && issues.length < MAX_ISSUES; position++) {
      const index = requiredIndex[position]!
      const present =
        tracked && index !== -1
          ? (seen & (1 << index)) !== 0
          : Object.hasOwn(object, required[position]!) && object[required[position]!] !== undefined
      if (!present) issues.push(createIssueAt(prefix, pointer, 'required', missing[position]!))
    }
    return issues
  }
}
