import type { CodeGenerator, KeywordEmitter } from './code-generator.js'
import { type Discriminator, findDiscriminator, findExclusiveDiscriminator } from './discriminator.js'
import type { JsonSchemaNode } from './node.js'
import { KIND_TESTS, literal } from './source-literals.js'

/** Source emitters for the applicators on the same value: allOf, anyOf, oneOf, not and $ref. */

/** `if (t === <tag>) { <that branch> } else if …`: each tag checks the branch it names, against `t`. */
function tagCases(discriminator: Discriminator, branches: readonly JsonSchemaNode[], generator: CodeGenerator): string {
  const cases = [...discriminator.branches].map(([tag, index]) => {
    const tagLiteral = literal(tag)
    if (tagLiteral === undefined) throw new Error('tag is not a JSON primitive')
    return `if (t === ${tagLiteral}) { ${generator.same(branches[index]!)} }`
  })
  return cases.join(' else ')
}

/** In explain mode, a union whose tag names a branch is explained by that branch (as the closures report it). */
function explainTagged(branches: readonly JsonSchemaNode[], generator: CodeGenerator): string {
  const discriminator = generator.mode === 'explain' ? findDiscriminator(branches) : undefined
  if (discriminator === undefined) return ''
  const key = JSON.stringify(discriminator.key)
  return `if (${KIND_TESTS.object} && O(d, ${key})) { const t = d[${key}]; ${tagCases(discriminator, branches, generator)} }`
}

/**
 * A union whose branches a tag makes exclusive (see `findExclusiveDiscriminator`), as a dispatch on the tag: one
 * branch is checked instead of all, in both modes, and no answer functions are needed for it.
 */
function dispatchOnTag(branches: readonly JsonSchemaNode[], generator: CodeGenerator): string | undefined {
  const discriminator = findExclusiveDiscriminator(branches)
  if (discriminator === undefined) return undefined
  const cases = tagCases(discriminator, branches, generator)
  const fail = generator.fail
  const key = JSON.stringify(discriminator.key)
  return `if (!${KIND_TESTS.object}) ${fail}\n{ const t = d[${key}]; ${cases} else ${fail} }`
}

export const combinatorEmitter: KeywordEmitter = (schema, generator) => {
  const lines: string[] = []
  for (const branch of schema.allOf ?? []) lines.push(generator.same(branch))
  const union = schema.oneOf ?? schema.anyOf
  const dispatch =
    union === undefined || (schema.oneOf !== undefined && schema.anyOf !== undefined)
      ? undefined
      : dispatchOnTag(union, generator)
  if (dispatch !== undefined) lines.push(dispatch)
  else if (schema.anyOf !== undefined) {
    const tests = schema.anyOf.map((branch) => generator.test(branch, 'd', false)).join(' || ')
    lines.push(`if (!(${tests})) { ${explainTagged(schema.anyOf, generator)} ${generator.fail} }`)
  }
  if (schema.oneOf !== undefined && dispatch === undefined) {
    lines.push('{ let m = 0;')
    for (const branch of schema.oneOf) {
      lines.push(`if (${generator.test(branch, 'd', false)} && ++m > 1) ${generator.fail}`)
    }
    lines.push(`if (m === 0) { ${explainTagged(schema.oneOf, generator)} }`, `if (m !== 1) ${generator.fail} }`)
  }
  if (schema.not !== undefined) lines.push(`if (${generator.test(schema.not, 'd', false)}) ${generator.fail}`)
  if (typeof schema.$ref === 'string') lines.push(generator.reference(schema.$ref))
  return lines
}
