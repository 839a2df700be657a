import { type PtcFailure, PtcFailureKind } from '@qilin-tools/code-mode/internal/failure-kinds.js'
import { findExcessNesting } from './nesting-depth.js'
import { type StripAnswer, TypeStripper } from './type-stripper.js'

/** The program becomes the body of this function so top-level `return` and `await` parse. */
const header = 'async function program() {\n'
const footer = '\n}'

/**
 * Levels of brackets, braces, parentheses, type arguments and template `${` a program may nest. The stripper's
 * WebAssembly stack gives out between roughly 450 and 1,500 levels depending on the construct; real code stays
 * far below.
 */
export const maxNestingDepth = 256

/** Characters of the offending line shown around the column: one long line must not become a long message. */
const shownLineChars = 120

/** What to write instead of each construct strip-only mode refuses. */
const hints: readonly (readonly [RegExp, string])[] = [
  [/enum/i, 'use a const object with `as const` instead of `enum`'],
  [/namespace|module/i, 'use plain objects or functions instead of a namespace'],
  [/parameter propert/i, 'declare the field and assign it in the constructor body'],
  [/angle-bracket|<T>/i, 'write `value as T` instead of `<T>value`'],
]

export type StripResult =
  | { readonly ok: true; readonly javascript: string }
  | { readonly ok: false; readonly failure: PtcFailure }

/** Shared by every runtime in the process, as amaro's instance was; a fault replaces only its worker. */
const sharedStripper = new TypeStripper()

/**
 * Erases TypeScript types with amaro's strip-only mode, which keeps every line and column in place, and returns
 * the function body as JavaScript. Refusals and syntax errors carry line:column and the line. A program nested
 * past `maxNestingDepth` is refused before stripping; one that still breaks the stripper costs only itself.
 */
export async function stripTypeScript(code: string, stripper: TypeStripper = sharedStripper): Promise<StripResult> {
  const excess = findExcessNesting(code, maxNestingDepth)
  if (excess !== undefined) return { ok: false, failure: nestingFailure(code, excess) }
  return readAnswer(await stripper.strip(`${header}${code}${footer}`), code)
}

function readAnswer(answer: StripAnswer, code: string): StripResult {
  if (answer.kind === 'stripped') {
    const { javascript } = answer
    return { ok: true, javascript: javascript.slice(header.length, javascript.length - footer.length) }
  }
  if (answer.kind === 'refused') return { ok: false, failure: refusalFailure(answer, code) }
  return { ok: false, failure: faultFailure(answer) }
}

function nestingFailure(code: string, offset: number): PtcFailure {
  const before = code.slice(0, offset)
  const line = before.split('\n').length
  const column = offset - before.lastIndexOf('\n')
  return {
    kind: PtcFailureKind.SOURCE_LIMIT,
    message:
      `the program nests deeper than ${maxNestingDepth} levels at line ${line}:${column} ` +
      '(each open bracket, brace, parenthesis, type argument list and template `${` is a level); ' +
      'build deep data with a loop or JSON.parse, and move nested functions out to the top level' +
      shownLine(code, line, column),
  }
}

function refusalFailure(answer: Extract<StripAnswer, { kind: 'refused' }>, code: string): PtcFailure {
  const message = answer.message.trim()
  const lines = code.split(/\r?\n/)
  const line = Math.min(lines.length, Math.max(1, (answer.startLine ?? 2) - 1))
  const column = (answer.startColumn ?? 0) + 1
  const where = `line ${line}:${column}`
  const shown = shownLine(code, line, column)
  if (answer.code === 'UnsupportedSyntax') {
    const hint = hints.find(([pattern]) => pattern.test(message))?.[1]
    return {
      kind: PtcFailureKind.UNSUPPORTED_SYNTAX,
      message: `${message} at ${where}${hint === undefined ? '' : ` (${hint})`}${shown}`,
    }
  }
  return { kind: PtcFailureKind.SYNTAX, message: `${message} at ${where}${shown}` }
}

/** A stack overflow or an out-of-bounds trap is the program's shape; anything else is the stripper's own fault. */
function faultFailure(answer: Extract<StripAnswer, { kind: 'fault' }>): PtcFailure {
  if (answer.reason === 'timeout') {
    return { kind: PtcFailureKind.DEADLINE, message: `${answer.message}; write a shorter program` }
  }
  const exhausted = /call stack|out of bounds/i.test(answer.message)
  if (answer.reason === 'fault' && exhausted) {
    return {
      kind: PtcFailureKind.SOURCE_LIMIT,
      message:
        `the type stripper ran out of stack on this program (${answer.name}: ${answer.message}): it nests too ` +
        'deeply or chains too many operators in one expression (a = b = c …, a.b.c …, new new …, x!!! …); ' +
        'split long expressions into statements and nested code into functions',
    }
  }
  return {
    kind: PtcFailureKind.SANDBOX,
    message: `the type stripper failed on this program (${answer.name}: ${answer.message}); it was restarted`,
  }
}

/** The numbered source line, cut to a window around `column` when it is long. */
function shownLine(code: string, line: number, column: number): string {
  const source = code.split(/\r?\n/)[line - 1]
  if (source === undefined) return ''
  if (source.length <= shownLineChars) return `\n  ${line} | ${source}`
  const start = Math.max(0, Math.min(column - 1 - shownLineChars / 2, source.length - shownLineChars))
  const end = start + shownLineChars
  return `\n  ${line} | ${start > 0 ? '…' : ''}${source.slice(start, end)}${end < source.length ? '…' : ''}`
}
