import type { WorkMeter } from 'qilin-tools/internal/providers/render-budget.js'
import { docComment, memberKey } from './ts-names.js'
import type { TsMember, TsType } from './ts-type.js'

/** Objects longer than this on one line, or with any documented member, print one member per line. */
const inlineWidth = 100

export interface PrintOptions {
  /** The alias a shape prints as, by structural key; `undefined` prints structure. */
  readonly aliasOf: (type: TsType) => string | undefined
  /** Pays for every print; a shape whose print would run away stops the render instead. */
  readonly meter: WorkMeter
}

const keys = new WeakMap<TsType, string>()

/**
 * The structural hash of a shape: its full one-line print, descriptions included. References are transparent,
 * so a `$ref` fan-out doubles the key per level: each key is paid for by its length.
 */
export function structuralKey(type: TsType, meter: WorkMeter): string {
  const resolved = resolve(type)
  if (resolved.kind === 'reference') return `#${resolved.definition.id}`
  const known = keys.get(resolved)
  if (known !== undefined) return known
  const structural: PrintOptions = { aliasOf: () => undefined, meter }
  const key = printWith(resolved, (inner) => structuralKey(inner, meter), structural, true)
  meter.spend(key.length)
  keys.set(resolved, key)
  return key
}

/** Follows non-recursive references to the shape they name. */
export function resolve(type: TsType): TsType {
  let current = type
  while (current.kind === 'reference' && current.definition.type !== undefined && !current.definition.recursive) {
    current = current.definition.type
  }
  return current
}

export function printType(type: TsType, indent: string, options: PrintOptions): string {
  options.meter.spend()
  const resolved = resolve(type)
  const alias = options.aliasOf(resolved)
  if (alias !== undefined) return alias
  if (resolved.kind === 'object' && resolved.members.length > 0) {
    const inline = printInline(resolved, options, false)
    const documented = printInline(resolved, options, true) !== inline
    if (!documented && inline.length + indent.length <= inlineWidth) return inline
    return printBlock(resolved.members, resolved.index, indent, options)
  }
  return printWith(resolved, (inner) => printType(inner, indent, options), options, false)
}

function printInline(type: TsType, options: PrintOptions, withDescriptions: boolean): string {
  options.meter.spend()
  const resolved = resolve(type)
  const alias = options.aliasOf(resolved)
  if (alias !== undefined) return alias
  return printWith(resolved, (inner) => printInline(inner, options, withDescriptions), options, withDescriptions)
}

function printWith(
  type: TsType,
  inner: (type: TsType) => string,
  options: PrintOptions,
  withDescriptions: boolean,
): string {
  switch (type.kind) {
    case 'keyword':
      return type.text
    case 'reference':
      return options.aliasOf(type) ?? `#${type.definition.id}`
    case 'array':
      return `${wrap(type.item, inner(type.item), options)}[]`
    case 'tuple': {
      const items = type.items.map(inner)
      return `[${[...items, ...(type.rest === undefined ? [] : [`...${wrap(type.rest, inner(type.rest), options)}[]`])].join(', ')}]`
    }
    case 'union':
      return [...new Set(type.options.map(inner))].join(' | ')
    case 'intersection':
      return type.parts.map((part) => wrap(part, inner(part), options)).join(' & ')
    case 'object':
      return printObjectInline(type.members, type.index, inner, withDescriptions)
  }
}

function printObjectInline(
  members: readonly TsMember[],
  index: TsType | undefined,
  inner: (type: TsType) => string,
  withDescriptions: boolean,
): string {
  if (members.length === 0) return index === undefined ? 'Record<string, never>' : `Record<string, ${inner(index)}>`
  const parts = members.map((member) => {
    const comment = withDescriptions && member.description !== undefined ? `/** ${member.description} */ ` : ''
    return `${comment}${memberKey(member.name)}${member.optional ? '?' : ''}: ${inner(member.type)}`
  })
  if (index !== undefined) parts.push(`[key: string]: ${inner(index)}`)
  return `{ ${parts.join('; ')} }`
}

function printBlock(members: readonly TsMember[], index: TsType | undefined, indent: string, options: PrintOptions) {
  const inside = `${indent}  `
  const lines = members.map((member) => {
    const comment = member.description === undefined ? '' : docComment(member.description, inside)
    const type = printType(member.type, inside, options)
    return `${comment}${inside}${memberKey(member.name)}${member.optional ? '?' : ''}: ${type}\n`
  })
  if (index !== undefined) lines.push(`${inside}[key: string]: ${printType(index, inside, options)}\n`)
  return `{\n${lines.join('')}${indent}}`
}

/** Parenthesises a union or intersection printed structurally where it would bind wrongly (`(A | B)[]`). */
function wrap(type: TsType, printed: string, options: PrintOptions): string {
  const resolved = resolve(type)
  if (options.aliasOf(resolved) !== undefined) return printed
  return resolved.kind === 'union' || resolved.kind === 'intersection' ? `(${printed})` : printed
}
