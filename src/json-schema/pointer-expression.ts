/** Source text of JSON pointers in generated code: string literals and expressions such as `"/" + i3`. */

/** A plain double-quoted literal (JSON.stringify output without escaped quotes inside). */
export function isStringLiteral(source: string): boolean {
  return source.startsWith('"') && source.endsWith('"') && !source.slice(1, -1).includes('"')
}

/** The pieces as one concatenation expression, adjacent literals joined into one (`""` for none). */
export function joinPointerPieces(pieces: readonly string[]): string {
  const joined: string[] = []
  // `"/" + i` joins the literal before it too.
  for (const part of pieces.flatMap((item) => (item.startsWith('"/" + ') ? ['"/"', item.slice(6)] : [item]))) {
    const previous = joined.at(-1)
    if (previous !== undefined && isStringLiteral(previous) && isStringLiteral(part)) {
      joined[joined.length - 1] = JSON.stringify((JSON.parse(previous) as string) + (JSON.parse(part) as string))
    } else {
      joined.push(part)
    }
  }
  return joined.length === 0 ? '""' : joined.join(' + ')
}
