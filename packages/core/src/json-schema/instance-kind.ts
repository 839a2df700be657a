/** The six JSON value kinds (plus anything else a caller might pass), used as an index into per-kind check lists. */
export const InstanceKind = {
  null: 0,
  boolean: 1,
  object: 2,
  array: 3,
  number: 4,
  string: 5,
  other: 6,
} as const
export type InstanceKind = (typeof InstanceKind)[keyof typeof InstanceKind]
export const INSTANCE_KIND_COUNT = 7

export function kindOf(value: unknown): InstanceKind {
  switch (typeof value) {
    case 'string':
      return InstanceKind.string
    case 'number':
      return InstanceKind.number
    case 'boolean':
      return InstanceKind.boolean
    case 'object':
      if (value === null) return InstanceKind.null
      return Array.isArray(value) ? InstanceKind.array : InstanceKind.object
    default:
      return InstanceKind.other
  }
}
