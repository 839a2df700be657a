import { brandError } from '../errors/brand.js'
import { complement, MAX_CODE_POINT, WHITE_SPACE } from './ecma-character-sets.js'

/**
 * ECMAScript (`u` flag, or legacy syntax for grep) to RE2 syntax with ECMAScript meanings kept: `\s` is
 * ECMAScript's white space, `.` stops at every line terminator, `[]` and `[^]` are empty and full, `\u{…}` and
 * surrogate pairs become code points; lookaround and backreferences throw `UnsupportedSyntax`.
 */
const hex = (codePoint: number) => `\\x{${codePoint.toString(16)}}`
const ranges = (list: readonly (readonly [number, number])[]) =>
  list.map(([low, high]) => (low === high ? hex(low) : `${hex(low)}-${hex(high)}`)).join('')

const SPACE = ranges(WHITE_SPACE)
const NOT_SPACE = ranges(complement(WHITE_SPACE))
const ANYTHING = `${hex(0)}-${hex(MAX_CODE_POINT)}`
/** ECMAScript's `.` without the `s` flag: anything but a line terminator. */
const DOT = `[^${hex(0x0a)}${hex(0x0d)}${hex(0x2028)}${hex(0x2029)}]`

/** ECMAScript's long General_Category names RE2 spells only in short form. */
const CATEGORY_NAMES: Readonly<Record<string, string>> = {
  Letter: 'L',
  Cased_Letter: 'L&',
  Uppercase_Letter: 'Lu',
  Lowercase_Letter: 'Ll',
  Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Mark: 'M',
  Number: 'N',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  punct: 'P',
  Symbol: 'S',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Other: 'C',
  Control: 'Cc',
}

/** Thrown for valid ECMAScript syntax RE2 has no equivalent for; its message says which. */
export class UnsupportedSyntax extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UnsupportedSyntax'
  }
}
export const isUnsupportedSyntax = brandError(UnsupportedSyntax, 'UnsupportedSyntax')

const QUANTIFIER = /^\{\d+(?:,\d*)?\}/

/** ECMAScript source (already known to be valid) to RE2 source with the same meaning. */
export function translateToRe2(source: string): string {
  let out = ''
  let index = 0
  while (index < source.length) {
    const char = source[index]!
    if (char === '\\') {
      const [text, length] = escapeSequence(source, index, false)
      out += text
      index += length
    } else if (char === '[') {
      const [text, length] = characterClass(source, index)
      out += text
      index += length
    } else if (char === '(') {
      const [text, length] = groupOpening(source, index)
      out += text
      index += length
    } else if (char === '.') {
      out += DOT
      index++
    } else if (char === '{') {
      const quantifier = QUANTIFIER.exec(source.slice(index))
      out += quantifier === null ? '\\{' : quantifier[0]
      index += quantifier === null ? 1 : quantifier[0].length
    } else if (char === '}' || char === ']') {
      out += `\\${char}`
      index++
    } else {
      const codePoint = source.codePointAt(index)!
      out += String.fromCodePoint(codePoint)
      index += codePoint > 0xffff ? 2 : 1
    }
  }
  return out
}

function groupOpening(source: string, index: number): [string, number] {
  if (source[index + 1] !== '?') return ['(?:', 1]
  const marker = source.slice(index + 2, index + 4)
  if (marker[0] === '=' || marker[0] === '!' || marker === '<=' || marker === '<!') {
    throw new UnsupportedSyntax('lookahead and lookbehind assertions are not supported by the linear regex engine')
  }
  if (marker[0] === '<') return ['(?:', source.indexOf('>', index) + 1 - index]
  return ['(?:', 3]
}

const PASS_THROUGH_ESCAPES = new Set(['d', 'D', 'w', 'W', 't', 'n', 'r', 'f', 'v'])

/** One escape at `index`: its RE2 text and its source length. Inside a class, `\b` is backspace. */
function escapeSequence(source: string, index: number, inClass: boolean): [string, number] {
  const next = source[index + 1] ?? ''
  if (PASS_THROUGH_ESCAPES.has(next)) return [`\\${next}`, 2]
  if (next === 'b' || next === 'B') return [inClass ? hex(0x08) : `\\${next}`, 2]
  if (next === 's') return [inClass ? SPACE : `[${SPACE}]`, 2]
  if (next === 'S') return [inClass ? NOT_SPACE : `[${NOT_SPACE}]`, 2]
  if (/[1-9]/.test(next) || next === 'k') {
    throw new UnsupportedSyntax('backreferences are not supported by the linear regex engine')
  }
  if (next === '0' && !/[0-9]/.test(source[index + 2] ?? '')) return [hex(0), 2]
  if (next === 'c' && /[A-Za-z]/.test(source[index + 2] ?? '')) {
    return [hex(source.charCodeAt(index + 2) % 32), 3]
  }
  if (next === 'x' && /^[0-9A-Fa-f]{2}$/.test(source.slice(index + 2, index + 4))) {
    return [hex(Number.parseInt(source.slice(index + 2, index + 4), 16)), 4]
  }
  if (next === 'u') return unicodeEscape(source, index)
  if ((next === 'p' || next === 'P') && source[index + 2] === '{') {
    const close = source.indexOf('}', index)
    return [`\\${next}{${propertyName(source.slice(index + 3, close))}}`, close + 1 - index]
  }
  const codePoint = source.codePointAt(index + 1)!
  return [hex(codePoint), codePoint > 0xffff ? 3 : 2]
}

function unicodeEscape(source: string, index: number): [string, number] {
  if (source[index + 2] === '{') {
    const close = source.indexOf('}', index)
    return [hex(Number.parseInt(source.slice(index + 3, close), 16)), close + 1 - index]
  }
  const unit = Number.parseInt(source.slice(index + 2, index + 6), 16)
  if (Number.isNaN(unit) || !/^[0-9A-Fa-f]{4}$/.test(source.slice(index + 2, index + 6))) return ['u', 2]
  const low = /^\\u([0-9A-Fa-f]{4})/.exec(source.slice(index + 6))
  const lowUnit = low === null ? 0 : Number.parseInt(low[1]!, 16)
  if (unit >= 0xd800 && unit <= 0xdbff && lowUnit >= 0xdc00 && lowUnit <= 0xdfff) {
    return [hex(0x10000 + ((unit - 0xd800) << 10) + (lowUnit - 0xdc00)), 12]
  }
  if (unit >= 0xd800 && unit <= 0xdfff) {
    throw new UnsupportedSyntax('a lone surrogate escape is not supported by the linear regex engine')
  }
  return [hex(unit), 6]
}

function propertyName(body: string): string {
  const [name, value] = body.split('=')
  if (value === undefined) return CATEGORY_NAMES[name!] ?? name!
  if (name === 'General_Category' || name === 'gc') return CATEGORY_NAMES[value] ?? value
  if (name === 'Script' || name === 'sc') return value
  throw new UnsupportedSyntax(`the Unicode property \\p{${body}} is not supported by the linear regex engine`)
}

/** A `[...]` class at `index`: its RE2 text and its source length. */
function characterClass(source: string, index: number): [string, number] {
  let position = index + 1
  const negated = source[position] === '^'
  if (negated) position++
  let body = ''
  while (position < source.length && source[position] !== ']') {
    const char = source[position]!
    if (char === '\\') {
      const [text, length] = escapeSequence(source, position, true)
      body += text
      position += length
    } else if (char === '[' || char === '^') {
      body += `\\${char}`
      position++
    } else {
      const codePoint = source.codePointAt(position)!
      body += String.fromCodePoint(codePoint)
      position += codePoint > 0xffff ? 2 : 1
    }
  }
  const length = position + 1 - index
  if (body === '') return [negated ? `[${ANYTHING}]` : `[^${ANYTHING}]`, length]
  return [`[${negated ? '^' : ''}${body}]`, length]
}
