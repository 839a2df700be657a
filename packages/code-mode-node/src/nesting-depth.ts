/**
 * A linear pre-scan of a program for nesting too deep for the type stripper: `( [ {`, template `${`, and type
 * argument lists `<…>` each count one level. Strings, comments and regular expression literals are skipped. It is
 * a bound for the common shapes, not a parser: a shape it misses faults the stripper, which is then replaced.
 */

/** Characters that never occur inside a type argument list: an open `<` before them was a comparison. */
const notInTypes = new Set([';', '+', '*', '%'])
/** Words after which a `/` starts a regular expression rather than dividing. */
const operatorWords = new Set([
  'await',
  'case',
  'delete',
  'do',
  'else',
  'in',
  'instanceof',
  'new',
  'of',
  'return',
  'throw',
  'typeof',
  'void',
  'yield',
])
const openers: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' }
/** The closer a template's `${` frame waits for; it then returns to the template's text. */
const templateFrame = '`'

function isLineEnd(char: string | undefined): boolean {
  return char === '\n' || char === '\r' || char === '\u2028' || char === '\u2029'
}

function isWordChar(char: string): boolean {
  const code = char.charCodeAt(0)
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    char === '_' ||
    char === '$' ||
    char === '\\' ||
    code > 127
  )
}

/** Index just past a quoted string opened at `start`; an unescaped line end also ends it (a syntax error). */
function skipString(code: string, start: number): number {
  const quote = code[start]
  let index = start + 1
  while (index < code.length) {
    const char = code[index]
    if (char === '\\') index += 2
    else if (char === quote) return index + 1
    else if (isLineEnd(char)) return index
    else index++
  }
  return index
}

/** Index just past a template's text from `start`: past its closing backtick, or past a `${` (then `opened`). */
function skipTemplateText(code: string, start: number): { readonly index: number; readonly opened: boolean } {
  let index = start
  while (index < code.length) {
    const char = code[index]
    if (char === '\\') index += 2
    else if (char === '`') return { index: index + 1, opened: false }
    else if (char === '$' && code[index + 1] === '{') return { index: index + 2, opened: true }
    else index++
  }
  return { index, opened: false }
}

/** Index just past a regular expression literal opened at `start`, or -1 when none ends on this line. */
function regexEnd(code: string, start: number): number {
  let inClass = false
  let index = start + 1
  while (index < code.length) {
    const char = code[index]
    if (isLineEnd(char)) return -1
    if (char === '\\') index++
    else if (char === '[') inClass = true
    else if (char === ']') inClass = false
    else if (char === '/' && !inClass) return index + 1
    index++
  }
  return -1
}

function lineEnd(code: string, start: number): number {
  let index = start
  while (index < code.length && !isLineEnd(code[index])) index++
  return index
}

/**
 * The offset of the first opener that takes `code` deeper than `limit` levels, or `undefined` when it stays within.
 * Runs in one pass (each line at most twice), so a hostile program costs time linear in its length.
 */
export function findExcessNesting(code: string, limit: number): number | undefined {
  const closers: string[] = []
  /** Open `<` per frame, the outermost first; a comparison's `<` is forgotten at the next token types never hold. */
  const angles: number[] = [0]
  let angleTotal = 0
  /** Whether a `/` here starts a regular expression. */
  let regexAllowed = true
  /** Up to this offset every `/` divides: a regular expression guessed on this line did not end on it. */
  let divideUntil = -1
  let index = 0

  const forgetAngles = () => {
    angleTotal -= angles[angles.length - 1] ?? 0
    angles[angles.length - 1] = 0
  }
  const open = (closer: string): boolean => {
    closers.push(closer)
    angles.push(0)
    return closers.length + angleTotal > limit
  }
  const close = () => {
    closers.pop()
    angleTotal -= angles.pop() ?? 0
  }
  /** Continues a template's text at `from`; true when a `${` inside it went past the limit. */
  const templateText = (from: number): boolean => {
    const text = skipTemplateText(code, from)
    index = text.index
    regexAllowed = text.opened
    return text.opened && open(templateFrame)
  }

  while (index < code.length) {
    const char = code[index] as string
    const next = code[index + 1]
    if (char === ' ' || char === '\t' || isLineEnd(char)) {
      index++
    } else if (isWordChar(char)) {
      const start = index
      while (index < code.length && isWordChar(code[index] as string)) index++
      regexAllowed = operatorWords.has(code.slice(start, index))
    } else if (char === '"' || char === "'") {
      index = skipString(code, index)
      regexAllowed = false
    } else if (char === '`') {
      if (templateText(index + 1)) return index - 2
    } else if (char === '/' && next === '/') {
      index = lineEnd(code, index)
    } else if (char === '/' && next === '*') {
      const end = code.indexOf('*/', index + 2)
      index = end === -1 ? code.length : end + 2
    } else if (char === '/') {
      const guessed = regexAllowed && index > divideUntil
      const end = guessed ? regexEnd(code, index) : -1
      if (end === -1) {
        if (guessed) divideUntil = lineEnd(code, index)
        forgetAngles()
        index++
        regexAllowed = true
      } else {
        index = end
        regexAllowed = false
      }
    } else if (openers[char] !== undefined) {
      if (open(openers[char])) return index
      index++
      regexAllowed = true
    } else if (char === ')' || char === ']' || char === '}') {
      const top = closers[closers.length - 1]
      if (top === templateFrame) {
        if (char === '}') {
          close()
          if (templateText(index + 1)) return index - 2
        } else index++
      } else {
        if (top !== undefined) close()
        index++
        regexAllowed = char === '}'
      }
    } else if (char === '<') {
      if (next === '<' || next === '=') {
        forgetAngles()
        index += 2
      } else {
        angles[angles.length - 1] = (angles[angles.length - 1] ?? 0) + 1
        angleTotal++
        if (closers.length + angleTotal > limit) return index
        index++
      }
      regexAllowed = true
    } else if (char === '>') {
      if (next === '=') forgetAngles()
      else if ((angles[angles.length - 1] ?? 0) > 0) {
        angles[angles.length - 1] = (angles[angles.length - 1] ?? 0) - 1
        angleTotal--
      }
      index++
      regexAllowed = true
    } else if (char === '=') {
      if (next === '>') index += 2
      else {
        forgetAngles()
        index++
      }
      regexAllowed = true
    } else if ((char === '&' && next === '&') || (char === '|' && next === '|') || (char === '?' && next === '?')) {
      forgetAngles()
      index += 2
      regexAllowed = true
    } else {
      if (notInTypes.has(char)) forgetAngles()
      index++
      regexAllowed = true
    }
  }
  return undefined
}
