/**
 * PostgreSQL text cannot hold U+0000, and a lone UTF-16 surrogate has no UTF-8 form (the driver would send U+FFFD
 * instead). Identifiers come from the model (a call id) or the host, so the text columns carry them through a
 * reversible escape with U+0001 as the escape character: U+0001 → U+0001 `1`, U+0000 → U+0001 `0`, a lone
 * surrogate → U+0001 `s` and four hex digits. Ordinary text is left as it is, and equal inputs give equal column
 * text, so equality filters still work on the escaped form. JSON columns need none of this: the `json` type keeps
 * `\u0000` and lone-surrogate escapes as written.
 */
const ESCAPE = '\u0001'
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 and U+0001 are what the escape is for
const NEEDS_ESCAPE = /[\u0000\u0001]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** The column form of `text`. */
export function toColumnText(text: string): string {
  NEEDS_ESCAPE.lastIndex = 0
  if (!NEEDS_ESCAPE.test(text)) return text
  return text.replace(NEEDS_ESCAPE, (character) => {
    if (character === '\u0000') return `${ESCAPE}0`
    if (character === ESCAPE) return `${ESCAPE}1`
    return `${ESCAPE}s${character.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0001 is the escape character
const ESCAPED = /\u0001(?:(0)|(1)|s([0-9a-f]{4}))/g

/** The text a column holds, as it was before `toColumnText`. */
export function fromColumnText(column: string): string {
  if (!column.includes(ESCAPE)) return column
  return column.replace(ESCAPED, (_match, nul: string | undefined, escaped: string | undefined, hex: string) => {
    if (nul !== undefined) return '\u0000'
    if (escaped !== undefined) return ESCAPE
    return String.fromCharCode(Number.parseInt(hex, 16))
  })
}
