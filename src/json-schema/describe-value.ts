const PREVIEW_LENGTH = 40

/** A short, deterministic description of a received value for issue messages: `string "10"`, `array of 3 items`. */
export function describeValue(value: unknown): string {
  const describe = describers[typeof value]
  return describe === undefined ? typeof value : describe(value)
}

/**
 * A JSON rendering cut to a preview length, for listing allowed and received values. It stops serialising once the
 * budget is spent, so a huge or deeply nested value costs no more than a small one.
 */
export function previewJson(value: unknown): string {
  const parts: string[] = []
  let length = 0
  const emit = (text: string) => {
    parts.push(text)
    length += text.length
  }
  const visit = (current: unknown, depth: number): void => {
    if (length > PREVIEW_LENGTH) return
    if (typeof current !== 'object' || current === null) {
      emit(typeof current === 'string' ? JSON.stringify(current.slice(0, PREVIEW_LENGTH + 1)) : String(current))
      return
    }
    if (depth > 8) {
      emit('…')
      return
    }
    const isArray = Array.isArray(current)
    emit(isArray ? '[' : '{')
    const keys = isArray ? [] : Object.keys(current)
    const count = isArray ? current.length : keys.length
    for (let index = 0; index < count && length <= PREVIEW_LENGTH; index++) {
      if (index > 0) emit(',')
      if (isArray) {
        visit(current[index], depth + 1)
      } else {
        const key = keys[index]!
        emit(`${JSON.stringify(key)}:`)
        visit((current as Record<string, unknown>)[key], depth + 1)
      }
    }
    emit(isArray ? ']' : '}')
  }
  visit(value, 0)
  const text = parts.join('')
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
