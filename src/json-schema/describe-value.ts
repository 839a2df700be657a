const PREVIEW_LENGTH = 40

/** A short, deterministic description of a received value for issue messages: `string "10"`, `array of 3 items`. */
export function describeValue(value: unknown): string {
  const describe = describers[typeof value]
  return describe === undefined ? typeof value : describe(value)
}

/** A JSON rendering cut to a preview length, for listing allowed values. */
export function previewJson(value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text
}

export function instanceTypeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

const describers: Partial<Record<string, (value: unknown) => string>> = {
  string: (value) => `string ${previewJson(value)}`,
  number: (value) => `${instanceTypeName(value)} ${String(value)}`,
  boolean: (value) => `boolean ${String(value)}`,
  object: (value) => {
    if (value === null) return 'null'
    if (Array.isArray(value)) return `array of ${value.length} item${value.length === 1 ? '' : 's'}`
    return `object ${previewJson(value)}`
  },
}
