/** 32-bit FNV-1a in base 36: short and the same on every run and platform. Not for security. */
export function stableHash(text: string): string {
  let hash = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(36)
}
