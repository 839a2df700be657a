import type { FailureReason } from './code-generator.js'
import { quoteAfter } from './describe-value.js'
import { singleIssueDetails } from './keyword-details.js'
import type { JsonSchemaObject } from './node.js'
import { listKeys } from './object-shape.js'
import type { ValidationIssue } from './validation-result.js'

/** Up to this many declared keys are found by a linear scan (interned keys compare by identity); more use a Set. */
const LINEAR_LOOKUP_LIMIT = 12

import { createIssue, createIssueAt, issuePrefix, MAX_ISSUES } from './validation-state.js'

/** Words the failure the generated code found, from the failing value and its pointer alone. */
export type FailureIssues = (value: unknown, pointer: string) => ValidationIssue[]

/**
 * The issues for a failure reason when they follow from the failing keyword without running the closure tree:
 * a failed `type`, or a simple keyword that was the node's last possible failure (every other check of the node
 * passed, so the closure tree would report exactly this one), or the object level of a plain object shape.
 * Undefined when only the closure tree can describe the node.
 */
export function failureIssues(reason: FailureReason, node: JsonSchemaObject): FailureIssues | undefined {
  if (reason.objectLevel) return objectLevelIssues(node)
  const makeDetail = singleIssueDetails[reason.keyword]
  if (makeDetail === undefined || (reason.keyword !== 'type' && !reason.last)) return undefined
  const detail = makeDetail(node)
  const keyword = reason.keyword
  return (value, pointer) => [createIssue(pointer, keyword, detail(value))]
}

/**
 * Unexpected keys, then missing required keys, as the fused object shape reports them once every present
 * declared property is known to be valid (the generated code checked them before this failure).
 */
function objectLevelIssues(node: JsonSchemaObject): FailureIssues {
  const declared = Object.keys(node.properties ?? {})
  const lookup = new Set(declared)
  const isDeclared =
    declared.length <= LINEAR_LOOKUP_LIMIT ? (key: string) => declared.includes(key) : (key: string) => lookup.has(key)
  const allowed = `; allowed properties: ${listKeys(declared)}`
  const closed = node.additionalProperties === false
  const required = node.required ?? []
  const missing = required.map((key) => `missing required property ${JSON.stringify(key)}`)
  return (value, pointer) => {
    const object = value as Record<string, unknown>
    const prefix = issuePrefix(pointer)
    const issues: ValidationIssue[] = []
    if (closed) {
      const keys = Object.keys(object)
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index]!
        if (isDeclared(key)) continue
        const detail = quoteAfter('unexpected property ', key) + allowed
        issues.push(createIssueAt(prefix, pointer, 'additionalProperties', detail))
        if (issues.length >= MAX_ISSUES) return issues
      }
    }
    for (let index = 0; index < required.length; index++) {
      const key = required[index]!
      if (Object.hasOwn(object, key) && object[key] !== undefined) continue
      issues.push(createIssueAt(prefix, pointer, 'required', missing[index]!))
      if (issues.length >= MAX_ISSUES) return issues
    }
    return issues
  }
}
