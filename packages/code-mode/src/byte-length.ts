const encoder = new TextEncoder()

/** UTF-8 byte length of a string, the unit every PTC size limit and byte count uses. */
export function byteLength(text: string): number {
  // Pure ASCII is the common case and its length is its byte length.
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) > 0x7f) return encoder.encode(text).length
  }
  return text.length
}
