import { transformSync } from 'amaro'
import { type PtcFailure, PtcFailureKind } from '../failure-kinds.js'

/** The program becomes the body of this function so top-level `return` and `await` parse. */
const header = 'async function program() {\n'
const footer = '\n}'

/** What to write instead of each construct strip-only mode refuses. */
const hints: readonly (readonly [RegExp, string])[] = [
  [/enum/i, 'use a const object with `as const` instead of `enum`'],
  [/namespace|module/i, 'use plain objects or functions instead of a namespace'],
  [/parameter propert/i, 'declare the field and assign it in the constructor body'],
  [/angle-bracket|<T>/i, 'write `value as T` instead of `<T>value`'],
]

interface AmaroError {
  readonly code?: string
  readonly message?: string
  readonly startLine?: number
  readonly startColumn?: number
}

export type StripResult =
  | { readonly ok: true; readonly javascript: string }
  | { readonly ok: false; readonly failure: PtcFailure }

/**
 * Erases TypeScript types with amaro's strip-only mode, which keeps every line and column in place,
 * and returns the function body as JavaScript. Refusals and syntax errors carry line:column and the line.
 */
export function stripTypeScript(code: string): StripResult {
  try {
    const { code: stripped } = transformSync(`${header}${code}${footer}`, { mode: 'strip-only' })
    return { ok: true, javascript: stripped.slice(header.length, stripped.length - footer.length) }
  } catch (error) {
    return { ok: false, failure: describeStripError(error as AmaroError, code) }
  }
}

function describeStripError(error: AmaroError, code: string): PtcFailure {
  const message = (error.message ?? String(error)).trim()
  const lines = code.split(/\r?\n/)
  const line = Math.min(lines.length, Math.max(1, (error.startLine ?? 2) - 1))
  const column = (error.startColumn ?? 0) + 1
  const where = `line ${line}:${column}`
  const source = lines[line - 1]
  const shown = source === undefined ? '' : `\n  ${line} | ${source}`
  if (error.code === 'UnsupportedSyntax') {
    const hint = hints.find(([pattern]) => pattern.test(message))?.[1]
    return {
      kind: PtcFailureKind.UNSUPPORTED_SYNTAX,
      message: `${message} at ${where}${hint === undefined ? '' : ` (${hint})`}${shown}`,
    }
  }
  return { kind: PtcFailureKind.SYNTAX, message: `${message} at ${where}${shown}` }
}
