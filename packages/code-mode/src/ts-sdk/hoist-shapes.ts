import type { WorkMeter } from 'qilin-tools/internal/providers/render-budget.js'
import { resolve, structuralKey } from './print-ts-type.js'
import { typeName } from './ts-names.js'
import { isHoistable, type TsType } from './ts-type.js'

/** A shared shape shorter than this stays inline: its alias would cost about as much as repeating it. */
const minimumSharedLength = 30

/** Names the SDK itself declares, or that TypeScript's standard and DOM libraries own; aliases never take them. */
const takenNames = (
  'ToolCallError JsonValue Promise Record Partial Required Readonly Pick Omit Array Error Object String Number ' +
  'Boolean Symbol Function Date RegExp Map Set WeakMap Math JSON Node Element Event Text Comment Document Window ' +
  'Request Response Headers URL Blob File Image Storage Location History Range Selection'
).split(' ')

export interface Hoisting {
  /** Alias declarations in first-use order: name and the shape it stands for. */
  readonly aliases: readonly { readonly name: string; readonly type: TsType }[]
  readonly aliasOf: (type: TsType) => string | undefined
}

interface Candidate {
  readonly type: TsType
  readonly hint: string
  count: number
  named: boolean
}

/**
 * Decides which shapes become named aliases: every `$defs` shape reached through `$ref`, and every
 * other shape that occurs at least twice (by structural key) once the aliases themselves are in place.
 */
export function hoistShapes(roots: readonly TsType[], meter: WorkMeter): Hoisting {
  const candidates = new Map<string, Candidate>()
  const walkedDefinitions = new Set<number>()
  const count = (type: TsType, fromDefinition: string | undefined): void => {
    meter.spend()
    if (type.kind === 'reference') {
      const definition = type.definition
      if (definition.type === undefined) return
      if (definition.recursive) {
        note(candidates, type, definition.name, true, meter)
        if (walkedDefinitions.has(definition.id)) return
        walkedDefinitions.add(definition.id)
      }
      count(definition.type, definition.name)
      return
    }
    if (isHoistable(type)) note(candidates, type, fromDefinition ?? hintOf(type), fromDefinition !== undefined, meter)
    for (const child of children(type)) count(child, undefined)
  }
  for (const root of roots) count(root, undefined)

  const wanted = new Set(
    [...candidates]
      .filter(([key, candidate]) => candidate.named || (candidate.count >= 2 && key.length >= minimumSharedLength))
      .map(([key]) => key),
  )
  const references = countReferences(roots, wanted, meter)
  const names = new Map<string, string>()
  const used = new Set(takenNames)
  const aliases: { name: string; type: TsType }[] = []
  for (const [key, candidate] of candidates) {
    if (!wanted.has(key) || (!candidate.named && (references.get(key) ?? 0) < 2)) continue
    let name = typeName(candidate.hint)
    for (let suffix = 2; used.has(name); suffix++) name = `${typeName(candidate.hint)}${suffix}`
    used.add(name)
    names.set(key, name)
    aliases.push({
      name,
      type: candidate.type.kind === 'reference' ? (candidate.type.definition.type as TsType) : candidate.type,
    })
  }
  return { aliases, aliasOf: (type) => names.get(structuralKey(resolve(type), meter)) }
}

function note(candidates: Map<string, Candidate>, type: TsType, hint: string, named: boolean, meter: WorkMeter): void {
  const key = structuralKey(type, meter)
  const known = candidates.get(key)
  if (known === undefined) {
    candidates.set(key, { type, hint, count: 1, named })
    return
  }
  known.count++
  known.named ||= named
}

/** How often each wanted shape is printed once wanted shapes print their bodies only once. */
function countReferences(roots: readonly TsType[], wanted: ReadonlySet<string>, meter: WorkMeter): Map<string, number> {
  const references = new Map<string, number>()
  const visit = (type: TsType): void => {
    meter.spend()
    const resolved = resolve(type)
    const key = structuralKey(resolved, meter)
    if (wanted.has(key)) {
      const seen = references.get(key) ?? 0
      references.set(key, seen + 1)
      if (seen > 0) return
    }
    const body = resolved.kind === 'reference' ? resolved.definition.type : resolved
    if (body !== undefined && body !== resolved) {
      for (const child of children(body)) visit(child)
      return
    }
    for (const child of children(resolved)) visit(child)
  }
  for (const root of roots) visit(root)
  return references
}

function children(type: TsType): readonly TsType[] {
  switch (type.kind) {
    case 'keyword':
    case 'reference':
      return []
    case 'object':
      return [...type.members.map((member) => member.type), ...(type.index === undefined ? [] : [type.index])]
    case 'array':
      return [type.item]
    case 'tuple':
      return [...type.items, ...(type.rest === undefined ? [] : [type.rest])]
    case 'union':
      return type.options
    case 'intersection':
      return type.parts
  }
}

function hintOf(type: TsType): string {
  return type.kind === 'object' || type.kind === 'union' ? type.hint : 'Shape'
}
