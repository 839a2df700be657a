import type { CodeGenerator, KeywordEmitter } from './code-generator.js'
import { type Discriminator, findDiscriminator, findExclusiveDiscriminator } from './discriminator.js'
import type { JsonSchemaNode } from './node.js'
import { KIND_TESTS, literal } from './source-literals.js'

/** Emitters for the applicators on the same value: allOf, anyOf, oneOf, not and $ref; each mirrors its closure. */

/** `if (tag === <tag>) { <that branch> } else if …`: each tag checks the branch it names. */
function tagCases(discriminator: Discriminator, branches: readonly JsonSchemaNode[], generator: CodeGenerator): string {
  const cases = [...discriminator.branches].map(([tag, index]) => {
    const tagLiteral = literal(tag)
    if (tagLiteral === undefined) throw new Error('tag is not a JSON primitive')
    return `if (tag === ${tagLiteral}) { ${generator.same(branches[index]!)} }`
  })
  return cases.join(' else ')
}

/** In explain mode, a union whose tag names a branch is explained by that branch (as the closures report it). */
function explainTagged(branches: readonly JsonSchemaNode[], generator: CodeGenerator): string {
  const discriminator = generator.mode === 'explain' ? findDiscriminator(branches) : undefined
  if (discriminator === undefined) return ''
  const key = JSON.stringify(discriminator.key)
  return `if (${KIND_TESTS.object} && hasOwn(data, ${key})) { const tag = data[${key}]; ${tagCases(discriminator, branches, generator)} }`
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
  return `if (!${KIND_TESTS.object}) ${fail}\n{ const tag = data[${key}]; ${cases} else ${fail} }`
}

/** A union of one keyword (`anyOf` or `oneOf` without the other) whose tag makes its branches exclusive. */
function dispatchAlone(union: readonly JsonSchemaNode[], other: unknown, generator: CodeGenerator) {
  return other === undefined ? dispatchOnTag(union, generator) : undefined
}

export const applicatorEmitters = {
  allOf: (schema, generator) => schema.allOf!.map((branch) => generator.same(branch)),
  anyOf(schema, generator) {
    const branches = schema.anyOf!
    const dispatch = dispatchAlone(branches, schema.oneOf, generator)
    if (dispatch !== undefined) return [dispatch]
    const tests = branches.map((branch) => generator.test(branch, 'data', false)).join(' || ')
    return [`if (!(${tests})) { ${explainTagged(branches, generator)} ${generator.fail} }`]
  },
  oneOf(schema, generator) {
    const branches = schema.oneOf!
    const dispatch = dispatchAlone(branches, schema.anyOf, generator)
    if (dispatch !== undefined) return [dispatch]
    const lines = ['{ let matches = 0;']
    for (const branch of branches)
      lines.push(`if (${generator.test(branch, 'data', false)} && ++matches > 1) ${generator.fail}`)
    lines.push(`if (matches === 0) { ${explainTagged(branches, generator)} }`, `if (matches !== 1) ${generator.fail} }`)
    return lines
  },
  not: (schema, generator) => [`if (${generator.test(schema.not!, 'data', false)}) ${generator.fail}`],
  $ref: (schema, generator) => (typeof schema.$ref === 'string' ? [generator.reference(schema.$ref)] : []),
} satisfies Record<string, KeywordEmitter>
