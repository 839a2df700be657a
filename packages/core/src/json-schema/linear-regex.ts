import { RE2JS } from 're2js'
import { anchoredSequence } from './anchored-sequence.js'
import { isUnsupportedSyntax, translateToRe2 } from './ecma-to-re2.js'

/**
 * One linear-time regex engine (re2js, RE2 semantics) for every pattern a model, a tool author or an MCP server
 * sends: JSON Schema `pattern`, grep, glob. Matching costs time proportional to pattern size times input length, so
 * no pattern can backtrack. ECMAScript syntax is translated to RE2's with ECMAScript meanings kept (`\s`, `.`,
 * `[^]`, `\u{…}`); what RE2 cannot express (lookaround, backreferences, repeat counts over 1000) is refused.
 * Anchored class sequences, most schema patterns, take a faster exact path (`anchored-sequence.ts`).
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
    translated = translateToRe2(source)
  } catch (error) {
    if (isUnsupportedSyntax(error)) return { ok: false, kind: 'unsupported', reason: error.message }
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
