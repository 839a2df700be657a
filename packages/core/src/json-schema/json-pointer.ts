/** One reference token of a JSON pointer (RFC 6901), escaped: `~` as `~0`, `/` as `~1`. */
export function escapePointerToken(token: string | number): string {
  const text = String(token)
  return text.includes('~') || text.includes('/') ? text.replaceAll('~', '~0').replaceAll('/', '~1') : text
}

/** The inverse of `escapePointerToken`. */
export function unescapePointerToken(token: string): string {
  return token.includes('~') ? token.replaceAll('~1', '/').replaceAll('~0', '~') : token
}
