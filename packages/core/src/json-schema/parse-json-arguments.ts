import { findJsonSyntaxError } from './find-json-syntax-error.js'
import type { JsonValue } from './json-value.js'

/** The size and nesting caps `parseJsonArguments` holds a call's arguments text to. */
export interface JsonArgumentLimits {
  /** Largest accepted text in UTF-8 bytes. Default 1 MiB. */
  readonly maxBytes?: number
  /** Deepest accepted nesting of arrays and objects. Default 64. */
  readonly maxDepth?: number
}

/** The parsed arguments, or the message saying why the text was refused. */
export type ParsedJsonArguments =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly message: string }

const DEFAULT_MAX_BYTES = 1024 * 1024
const DEFAULT_MAX_DEPTH = 64

/** The caps `parseJsonArguments` applies when given none: 1 MiB of text, 64 levels of nesting. */
export const defaultJsonArgumentLimits = Object.freeze({ maxBytes: DEFAULT_MAX_BYTES, maxDepth: DEFAULT_MAX_DEPTH })
const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/** The deepest nesting in `text`, or `limit + 1` as soon as it goes past `limit` (strings are skipped). */
function nestingDepth(text: string, limit: number): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === BACKSLASH) index++
      else if (code === QUOTE) inString = false
    } else if (code === QUOTE) {
      inString = true
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++
      if (depth > deepest) {
        deepest = depth
        if (deepest > limit) return deepest
      }
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--
    }
  }
  return deepest
}

/**
 * Parses tool-call argument text. Never throws: too large, too deep or invalid text comes back as a message
 * written for the model (what is wrong and where), and nesting is checked before parsing.
 */
export function parseJsonArguments(text: string, limits: JsonArgumentLimits = {}): ParsedJsonArguments {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_DEPTH
  if (typeof text !== 'string') return { ok: false, message: `arguments must be JSON text, received ${typeof text}` }
  // A UTF-16 unit is 1 to 3 UTF-8 bytes, so the exact count is needed only between those bounds.
  if (text.length > maxBytes || (text.length * 3 > maxBytes && Buffer.byteLength(text, 'utf8') > maxBytes)) {
    const bytes = Buffer.byteLength(text, 'utf8')
    return { ok: false, message: `arguments are ${bytes} bytes of JSON, more than the limit of ${maxBytes} bytes` }
  }
  if (text.length > 2 * maxDepth && nestingDepth(text, maxDepth) > maxDepth) {
    return { ok: false, message: `arguments nest arrays and objects deeper than the limit of ${maxDepth} levels` }
  }
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue }
  } catch {
    const error = findJsonSyntaxError(text)
    if (error === undefined) return { ok: false, message: 'arguments are not valid JSON' }
    return {
      ok: false,
      message: `arguments are not valid JSON: at line ${error.line}, column ${error.column}: expected ${error.expected}, found ${error.found}`,
    }
  }
}
