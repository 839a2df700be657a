import { captureIssues, passesSilently } from './capture-issues.js'
import type { CompileContext, KeywordDefinition } from './compile-context.js'
import { childPath } from './compile-context.js'
import { describeValue } from './describe-value.js'
import { type Discriminator, findDiscriminator, taggedBranch } from './discriminator.js'
import { expectSchemaList } from './keyword-values.js'
import type { JsonSchemaNode } from './node.js'
import type { ValidationIssue } from './validation-result.js'
import { type Check, MAX_ISSUES, report, shouldStop, type ValidationState } from './validation-state.js'

function compileBranches(value: unknown, keyword: string, context: CompileContext, path: string): Check[] {
  return expectSchemaList(value, keyword, path).map((schema, index) =>
    context.compile(schema as JsonSchemaNode, childPath(path, keyword, index)),
  )
}

function depthOf(issue: ValidationIssue): number {
  let depth = 0
  for (const char of issue.path) if (char === '/') depth++
  return depth
}

/**
 * When a tag property names the intended branch (`"type": "scroll"`), that branch's own issues are the useful
 * ones: they are reported as they are, at their own paths. Returns false when no tag applies.
 */
function reportTagged(
  branches: readonly Check[],
  discriminator: Discriminator | undefined,
  value: unknown,
  state: ValidationState,
): boolean {
  const tagged = taggedBranch(discriminator, value)
  if (tagged === undefined) return false
  const issues = captureIssues(branches[tagged]!, value, state)
  if (issues.length === 0) return false
  for (const issue of issues) if (state.issues.length < MAX_ISSUES) state.issues.push(issue)
  return true
}

/**
 * The failing branch most likely meant: fewest issues, then the deepest first issue (it got furthest into the
 * value, e.g. past a matching discriminator), then the lowest index.
 */
function closestBranch(branches: readonly Check[], value: unknown, state: ValidationState): string {
  let best: { index: number; issues: ValidationIssue[] } | undefined
  for (let index = 0; index < branches.length; index++) {
    const issues = captureIssues(branches[index]!, value, state)
    if (issues.length === 0) continue
    const better =
      best === undefined ||
      issues.length < best.issues.length ||
      (issues.length === best.issues.length && depthOf(issues[0]!) > depthOf(best.issues[0]!))
    if (better) best = { index, issues }
  }
  if (best === undefined) return ''
  return `; closest is alternative ${best.index}: ${best.issues[0]!.message}`
}

export const combinatorKeywords = {
  allOf: {
    appliesTo: 'any',
    compile(value, _schema, context, path): Check {
      const branches = compileBranches(value, 'allOf', context, path)
      return (instance, state) => {
        let valid = true
        for (const branch of branches) {
          if (!branch(instance, state)) {
            valid = false
            if (shouldStop(state)) return false
          }
        }
        return valid
      }
    },
  },
  anyOf: {
    appliesTo: 'any',
    compile(value, _schema, context, path): Check {
      const branches = compileBranches(value, 'anyOf', context, path)
      const discriminator = findDiscriminator(value)
      return (instance, state) => {
        for (const branch of branches) if (passesSilently(branch, instance, state)) return true
        if (state.silent === 0 && !reportTagged(branches, discriminator, instance, state)) {
          const detail = `expected at least one of ${branches.length} alternatives to match, none did`
          report(state, 'anyOf', detail + closestBranch(branches, instance, state))
        }
        return false
      }
    },
  },
  oneOf: {
    appliesTo: 'any',
    compile(value, _schema, context, path): Check {
      const branches = compileBranches(value, 'oneOf', context, path)
      const discriminator = findDiscriminator(value)
      return (instance, state) => {
        let first = -1
        for (let index = 0; index < branches.length; index++) {
          if (!passesSilently(branches[index]!, instance, state)) continue
          if (first === -1) {
            first = index
            continue
          }
          if (state.silent === 0) {
            report(
              state,
              'oneOf',
              `expected exactly one of ${branches.length} alternatives to match, but alternatives ${first} and ${index} both match`,
            )
          }
          return false
        }
        if (first !== -1) return true
        if (state.silent === 0 && !reportTagged(branches, discriminator, instance, state)) {
          const detail = `expected exactly one of ${branches.length} alternatives to match, none did`
          report(state, 'oneOf', detail + closestBranch(branches, instance, state))
        }
        return false
      }
    },
  },
  not: {
    appliesTo: 'any',
    compile(value, _schema, context, path): Check {
      const check = context.compile(value as JsonSchemaNode, childPath(path, 'not'))
      return (instance, state) => {
        if (!passesSilently(check, instance, state)) return true
        if (state.silent === 0)
          report(state, 'not', `expected a value the "not" schema rejects, received ${describeValue(instance)}`)
        return false
      }
    },
  },
} satisfies Record<string, KeywordDefinition>
