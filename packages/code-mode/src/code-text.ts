/**
 * Schema text (descriptions, titles, enum values, names) placed into generated TypeScript or Python. It is
 * hostile: a lone CR ends a Python `#` comment, LS and PS end lines for TypeScript, and a line that looks like
 * a declaration misleads a model even inside a comment. Everything here keeps such text inside its slot.
 */

/** Every sequence some reader takes for a line end: CRLF, LF, CR, VT, FF, NEL, LS and PS. */
const lineBreak = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/

/** C0 and C1 controls other than tab and the line breaks above; NUL alone makes Python refuse the source. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for
const control = /[\0-\x08\x0e-\x1f\x7f-\x84\x86-\x9f]/g

/** A high surrogate without its low half, or a low one without its high half. */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** Its lines, each free of line breaks and control characters, trimmed at the end; lone surrogates replaced. */
export function textLines(text: string): string[] {
  return text
    .replace(loneSurrogate, '\ufffd')
    .replace(control, '\ufffd')
    .trim()
    .split(lineBreak)
    .map((line) => line.trimEnd())
}

/** Separators JSON leaves raw in a string literal; some readers still see a line end there. */
const rawSeparators = /[\u0085\u2028\u2029]/g

/**
 * A string literal both TypeScript and Python read as `text`: JSON escapes (valid escapes in both languages),
 * plus NEL, LS and PS escaped so that the literal is one line for every reader.
 */
export function stringLiteral(text: string): string {
  return JSON.stringify(text).replace(
    rawSeparators,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
