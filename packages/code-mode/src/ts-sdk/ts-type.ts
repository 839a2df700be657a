/**
 * The TypeScript shape of a JSON Schema, before it is printed. The renderer converts every schema
 * into this form once, hashes it structurally, hoists shared shapes and then prints.
 */
export type TsType =
  | { readonly kind: 'keyword'; readonly text: string }
  | { readonly kind: 'object'; readonly members: readonly TsMember[]; readonly index?: TsType; readonly hint: string }
  | { readonly kind: 'array'; readonly item: TsType }
  | { readonly kind: 'tuple'; readonly items: readonly TsType[]; readonly rest?: TsType }
  | { readonly kind: 'union'; readonly options: readonly TsType[]; readonly hint: string }
  | { readonly kind: 'intersection'; readonly parts: readonly TsType[] }
  | { readonly kind: 'reference'; readonly definition: TsDefinition }

export interface TsMember {
  readonly name: string
  readonly optional: boolean
  readonly description?: string
  readonly type: TsType
}

/** A `$defs` entry reached through `$ref`; `type` is unset while it is being converted (a cycle). */
export interface TsDefinition {
  readonly name: string
  readonly id: number
  type: TsType | undefined
  recursive: boolean
}

export const keyword = (text: string): TsType => ({ kind: 'keyword', text })

export const unknownType = keyword('unknown')
export const jsonValueType = keyword('JsonValue')

/** Shapes worth naming: printing them twice costs more than an alias. */
export function isHoistable(type: TsType): boolean {
  return type.kind === 'object' || type.kind === 'union' || type.kind === 'intersection' || type.kind === 'tuple'
}
