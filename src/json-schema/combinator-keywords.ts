import { captureIssues, passesSilently } from './capture-issues.js'
import type { CompileContext, KeywordDefinition } from './compile-context.js'
import { childPath } from './compile-context.js'
import { describeValue } from './describe-value.js'
import { expectSchemaList } from './keyword-values.js'
import type { JsonSchemaNode } from './node.js'
import type { ValidationIssue } from './validation-result.js'
import { type Check, report, shouldStop, type ValidationState } from './validation-state.js'

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

interface Discriminator {
  readonly key: string
  /** Tag value to branch index. */
  readonly branches: ReadonlyMap<unknown, number>
}

function tagOf(schema: JsonSchemaNode | undefined): unknown {
  if (typeof schema !== 'object') return undefined
  if (schema.const !== undefined && typeof schema.const !== 'object') return schema.const
  if (schema.enum?.length === 1 && typeof schema.enum[0] !== 'object') return schema.enum[0]
  return undefined
}

/** A property every branch pins to a distinct constant (`type: {const: "click"}`…): it names the intended branch. */
function findDiscriminator(value: unknown): Discriminator | undefined {
  const branches = value as readonly JsonSchemaNode[]
  const first = branches[0]
  if (typeof first !== 'object' || first.properties === undefined) return undefined
  for (const key of Object.keys(first.properties)) {
    const tags = new Map<unknown, number>()
    for (const [index, branch] of branches.entries()) {
      const tag = typeof branch === 'object' ? tagOf(branch.properties?.[key]) : undefined
      if (tag === undefined || tags.has(tag)) break
      tags.set(tag, index)
    }
    if (tags.size === branches.length) return { key, branches: tags }
  }
  return undefined
}

function taggedBranch(discriminator: Discriminator | undefined, value: unknown): number | undefined {
  if (discriminator === undefined || typeof value !== 'object' || value === null || Array.isArray(value))
    return undefined
  if (!Object.hasOwn(value, discriminator.key)) return undefined
  return discriminator.branches.get((value as Record<string, unknown>)[discriminator.key])
}

/**
 * The failing branch most likely meant: fewest issues, then the deepest first issue (it got furthest into the
 * value, e.g. past a matching discriminator), then the lowest index.
 */
function closestBranch(
  branches: readonly Check[],
  discriminator: Discriminator | undefined,
  value: unknown,
  state: ValidationState,
): string {
  const tagged = taggedBranch(discriminator, value)
  if (tagged !== undefined) {
    const issue = captureIssues(branches[tagged]!, value, state)[0]
    if (issue !== undefined)
      return `; the ${JSON.stringify(discriminator!.key)} tag selects alternative ${tagged}: ${issue.message}`
  }
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
        if (state.silent === 0) {
          const detail = `expected at least one of ${branches.length} alternatives to match, none did`
          report(state, 'anyOf', detail + closestBranch(branches, discriminator, instance, state))
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
        if (state.silent === 0) {
          const detail = `expected exactly one of ${branches.length} alternatives to match, none did`
          report(state, 'oneOf', detail + closestBranch(branches, discriminator, instance, state))
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
