import { RE2JS } from 're2js'
import { anchoredSequence } from './anchored-sequence.js'

/**
 * One linear-time regex engine (re2js, RE2 semantics) for every pattern a model, a tool author or an MCP server
 * sends: JSON Schema `pattern`, grep, glob. Matching costs time proportional to pattern size times input length, so
 * no pattern can backtrack. ECMAScript syntax is translated to RE2's with ECMAScript meanings kept (`\s`, `.`,
 * `[^]`, `\u{…}`); what RE2 cannot express (lookaround, backreferences, repeat counts over 1000) is refused.
 */
export interface LinearPattern {
  /** Whether the pattern matches anywhere in `text`, like `RegExp.prototype.test`. */
  test(text: string): boolean
}

export type LinearPatternResult =
  | { readonly ok: true; readonly pattern: LinearPattern }
  | { readonly ok: false; readonly kind: 'invalid' | 'unsupported'; readonly reason: string }

export interface LinearPatternOptions {
  readonly ignoreCase?: boolean
  /**
   * Read the source as a RegExp without the `u` flag (grep): identity escapes such as `\-` or `\"` and a lone `{`
   * are literals. JSON Schema patterns are read with the `u` flag, as the specification asks.
   */
  readonly legacySyntax?: boolean
}

/** ECMAScript's WhiteSpace and LineTerminator code points, as RE2 class ranges. */
const WHITE_SPACE: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]
const MAX_CODE_POINT = 0x10ffff

const hex = (codePoint: number) => `\\x{${codePoint.toString(16)}}`
const ranges = (list: readonly (readonly [number, number])[]) =>
  list.map(([low, high]) => (low === high ? hex(low) : `${hex(low)}-${hex(high)}`)).join('')

function complement(list: readonly (readonly [number, number])[]): [number, number][] {
  const result: [number, number][] = []
  let next = 0
  for (const [low, high] of list) {
    if (low > next) result.push([next, low - 1])
    next = high + 1
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT])
  return result
}

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

class Unsupported extends Error {}

/**
 * Compiled patterns by flags and source. Compiling costs tens of microseconds (the closure tree and the generated
 * code each need the pattern of one schema, and tools share patterns); the bound keeps a server that sends
 * thousands of patterns from growing it.
 */
const cache = new Map<string, LinearPatternResult>()
const CACHE_LIMIT = 256

/** Compiles an ECMAScript `source` to the linear engine, or says why it cannot. */
export function compileLinearPattern(source: string, options: LinearPatternOptions = {}): LinearPatternResult {
  const key = `${options.ignoreCase === true ? 'i' : '-'}${options.legacySyntax === true ? 'l' : '-'}${source}`
  let result = cache.get(key)
  if (result === undefined) {
    result = compileUncached(source, options)
    if (cache.size === CACHE_LIMIT) cache.delete(cache.keys().next().value!)
    cache.set(key, result)
  }
  return result
}

/**
 * Matching costs up to program size times input length steps, and compiling costs time in the source length; these
 * bounds keep one match within tens of milliseconds on the inputs we run patterns on (4096-character strings,
 * 16 K-character grep lines). `(a{1,30}){1,30}b` compiles to 1802 instructions and is refused; `^[a-z0-9]{1,64}$`
 * takes about 130.
 */
export const MAX_PATTERN_SOURCE = 4096
export const MAX_PROGRAM_SIZE = 1000

function compileUncached(source: string, options: LinearPatternOptions): LinearPatternResult {
  if (source.length > MAX_PATTERN_SOURCE) {
    return {
      ok: false,
      kind: 'unsupported',
      reason: `the pattern is ${source.length} characters long, over the ${MAX_PATTERN_SOURCE} the linear regex engine accepts`,
    }
  }
  try {
    new RegExp(source, options.legacySyntax === true ? '' : 'u')
  } catch (error) {
    return { ok: false, kind: 'invalid', reason: (error as Error).message }
  }
  if (options.ignoreCase !== true && options.legacySyntax !== true) {
    const sequence = anchoredSequence(source)
    if (sequence !== undefined) return { ok: true, pattern: sequence }
  }
  let translated: string
  try {
    translated = translate(source)
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, kind: 'unsupported', reason: error.message }
    throw error
  }
  try {
    const compiled = RE2JS.compile(translated, options.ignoreCase === true ? RE2JS.CASE_INSENSITIVE : 0)
    const size = compiled.programSize()
    if (size > MAX_PROGRAM_SIZE) {
      return {
        ok: false,
        kind: 'unsupported',
        reason: `the pattern compiles to ${size} instructions, over the ${MAX_PROGRAM_SIZE} the linear regex engine runs (lower its repeat counts)`,
      }
    }
    return { ok: true, pattern: { test: (text) => compiled.test(text) } }
  } catch (error) {
    return { ok: false, kind: 'unsupported', reason: `the linear regex engine refuses it: ${(error as Error).message}` }
  }
}

/** Why `source` cannot run on the linear engine, or undefined when it can. */
export function linearPatternProblem(source: string, options: LinearPatternOptions = {}): string | undefined {
  const result = compileLinearPattern(source, options)
  return result.ok ? undefined : result.reason
}

const QUANTIFIER = /^\{\d+(?:,\d*)?\}/

/** ECMAScript source (already known to be valid) to RE2 source with the same meaning. */
function translate(source: string): string {
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
    throw new Unsupported('lookahead and lookbehind assertions are not supported by the linear regex engine')
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
    throw new Unsupported('backreferences are not supported by the linear regex engine')
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
    throw new Unsupported('a lone surrogate escape is not supported by the linear regex engine')
  }
  return [hex(unit), 6]
}

function propertyName(body: string): string {
  const [name, value] = body.split('=')
  if (value === undefined) return CATEGORY_NAMES[name!] ?? name!
  if (name === 'General_Category' || name === 'gc') return CATEGORY_NAMES[value] ?? value
  if (name === 'Script' || name === 'sc') return value
  throw new Unsupported(`the Unicode property \\p{${body}} is not supported by the linear regex engine`)
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
