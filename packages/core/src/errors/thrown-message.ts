/**
 * Text for whatever was thrown: an Error's message (or its name when empty), a string as is, anything else
 * stringified. Never throws: a throwing `message` getter, `toString` or proxy trap gives `'unknown error'`.
 */
export function thrownMessage(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return String(thrown.message || thrown.name)
    if (typeof thrown === 'string') return thrown
    return String(thrown)
  } catch {
    return 'unknown error'
  }
}
