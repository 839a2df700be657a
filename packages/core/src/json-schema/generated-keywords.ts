import type { CodeGenerator, KeywordEmitter } from './code-generator.js'
import { applicatorEmitters } from './generated-applicators.js'
import { arrayEmitters, objectEmitters } from './generated-member-keywords.js'
import { numberEmitters, stringEmitters, typeEmitters, typeNames, valueEmitters } from './generated-value-keywords.js'
import { InstanceKind } from './instance-kind.js'
import { keywords, type SupportedKeyword } from './keywords.js'
import type { JsonSchemaObject } from './node.js'
import { KIND_TESTS } from './source-literals.js'

/**
 * What a keyword contributes to generated code: its emitter, or no code because it only annotates (or is
 * checked once at compile time), or because another keyword's emitter reads it.
 */
export type GeneratedKeyword = KeywordEmitter | 'annotation' | 'read by another keyword'

/**
 * The emitter of every keyword in `keywords.ts`, in the order the checks run: explain mode reports the first
 * node that fails in this order. A keyword added to either table fails to compile until both handle it.
 */
export const keywordEmitters = {
  ...typeEmitters,
  nullable: 'read by another keyword',
  ...valueEmitters,
  ...applicatorEmitters,
  ...stringEmitters,
  ...numberEmitters,
  ...arrayEmitters,
  ...objectEmitters,
  // The reference resolver reads these.
  $defs: 'read by another keyword',
  definitions: 'read by another keyword',
  $id: 'read by another keyword',
  $schema: 'annotation',
  title: 'annotation',
  description: 'annotation',
  default: 'annotation',
  examples: 'annotation',
  $comment: 'annotation',
  deprecated: 'annotation',
  readOnly: 'annotation',
  writeOnly: 'annotation',
  contentMediaType: 'annotation',
  contentEncoding: 'annotation',
} satisfies Record<SupportedKeyword, GeneratedKeyword>

/** The test of `data` for one instance kind, and the `type` names that already guarantee it. */
interface KindGuard {
  readonly test: string
  readonly names: readonly string[]
}

const kindGuards: Record<InstanceKind, KindGuard> = {
  [InstanceKind.null]: { test: KIND_TESTS.null, names: ['null'] },
  [InstanceKind.boolean]: { test: KIND_TESTS.boolean, names: ['boolean'] },
  [InstanceKind.object]: { test: KIND_TESTS.object, names: ['object'] },
  [InstanceKind.array]: { test: KIND_TESTS.array, names: ['array'] },
  [InstanceKind.number]: { test: KIND_TESTS.number, names: ['number', 'integer'] },
  [InstanceKind.string]: { test: KIND_TESTS.string, names: ['string'] },
  // No JSON value is of another kind.
  [InstanceKind.other]: { test: 'false', names: [] },
}

interface KeywordStep {
  readonly keyword: SupportedKeyword
  readonly emit: KeywordEmitter
  /** The kind the keyword's closure applies to (from `keywords.ts`), or undefined when it applies to any value. */
  readonly guard: KindGuard | undefined
}

const steps: readonly KeywordStep[] = (Object.keys(keywordEmitters) as SupportedKeyword[]).flatMap((keyword) => {
  const emit: GeneratedKeyword = keywordEmitters[keyword]
  if (typeof emit !== 'function') return []
  const appliesTo = keywords[keyword].appliesTo
  return [{ keyword, emit, guard: typeof appliesTo === 'number' ? kindGuards[appliesTo] : undefined }]
})

/**
 * The checks of one node's keywords, each line after a newline. Checks that apply to one kind share one test of
 * that kind, left out when `type` already guarantees it.
 */
export function emitKeywordChecks(schema: JsonSchemaObject, generator: CodeGenerator): string {
  let source = ''
  let names: string[] | undefined | null = null
  let current: KindGuard | undefined
  let braceOpen = false
  for (const { keyword, emit, guard } of steps) {
    if (schema[keyword] === undefined) continue
    const lines = emit(schema, generator)
    if (lines.length === 0) continue
    if (guard !== current) {
      if (braceOpen) source += '\n}'
      current = guard
      braceOpen = false
      if (guard !== undefined) {
        if (names === null) names = typeNames(schema)
        braceOpen = names?.every((name) => guard.names.includes(name)) !== true
        if (braceOpen) source += `\nif (${guard.test}) {`
      }
    }
    for (const line of lines) source += `\n${line}`
  }
  if (braceOpen) source += '\n}'
  return source
}
