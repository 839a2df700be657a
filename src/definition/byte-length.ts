const encoder = new TextEncoder()

/** UTF-8 byte length of a string, the unit every size limit and byte count uses (code mode's and a result's). */
export function byteLength(text: string): number {
  // Pure ASCII is the common case and its length is its byte length.
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) > 0x7f) return encoder.encode(text).length
  }
  return text.length
}

/**
 * The longest start of `text` whose UTF-8 form fits in `maxBytes`, ending on a code point boundary (a surrogate pair
 * is never split). Encodes at most `maxBytes` bytes, however long `text` is.
 */
export function utf8Prefix(text: string, maxBytes: number): { readonly text: string; readonly bytes: number } {
  if (maxBytes <= 0) return { text: '', bytes: 0 }
  const { read, written } = encoder.encodeInto(text, new Uint8Array(maxBytes))
  return { text: read === text.length ? text : text.slice(0, read), bytes: written }
}
