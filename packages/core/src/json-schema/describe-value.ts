const PREVIEW_LENGTH = 40

/** A short, deterministic description of a received value for issue messages: `string "10"`, `array of 3 items`. */
export function describeValue(value: unknown): string {
  const describe = describers[typeof value]
  return describe === undefined ? typeof value : describe(value)
}

/**
 * `prefix` followed by `describeValue(value)`, built left to right so that short received strings and numbers are
 * appended to the long constant prefix instead of being assembled as small strings first.
 */
export function describeAfter(prefix: string, value: unknown): string {
  if (typeof value === 'string') {
    if (value.length <= PREVIEW_LENGTH - 2 && isPlainText(value)) return `${prefix}string "${value}"`
  } else if (typeof value === 'number') {
    return `${prefix}${Number.isInteger(value) ? 'integer ' : 'number '}${value}`
  }
  return prefix + describeValue(value)
}

/**
 * A JSON rendering cut to a preview length, for listing allowed and received values. It stops serialising once the
 * budget is spent, so a huge or deeply nested value costs no more than a small one.
 */
export function previewJson(value: unknown): string {
  const text = appendPreview('', value, 0)
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text
}

function appendPreview(text: string, value: unknown, depth: number): string {
  if (text.length > PREVIEW_LENGTH) return text
  if (typeof value !== 'object' || value === null) {
    return text + (typeof value === 'string' ? quote(value.slice(0, PREVIEW_LENGTH + 1)) : String(value))
  }
  if (depth > 8) return `${text}…`
  if (Array.isArray(value)) {
    let out = `${text}[`
    for (let index = 0; index < value.length && out.length <= PREVIEW_LENGTH; index++) {
      out = appendPreview(index > 0 ? `${out},` : out, value[index], depth + 1)
    }
    return `${out}]`
  }
  let out = `${text}{`
  let first = true
  for (const key of Object.keys(value)) {
    if (out.length > PREVIEW_LENGTH) break
    out = appendPreview(
      `${out}${first ? '' : ','}${JSON.stringify(key)}:`,
      (value as Record<string, unknown>)[key],
      depth + 1,
    )
    first = false
  }
  return `${out}}`
}

/** JSON string quoting, skipping JSON.stringify for the common plain printable-ASCII text. */
export function quote(text: string): string {
  return isPlainText(text) ? `"${text}"` : JSON.stringify(text)
}

/** Printable ASCII without quotes or backslashes: JSON quoting leaves it as it is. */
export function isPlainText(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return false
  }
  return true
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
