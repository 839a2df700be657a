import { escapePointerToken } from './json-pointer.js'
import type { ValidationIssue } from './validation-result.js'

/** At most this many issues are reported per `validate` call. */
export const MAX_ISSUES = 5
/** Every issue message is cut to this many characters. */
export const MAX_MESSAGE_LENGTH = 512

/**
 * Mutable state of one `validate` call. The instance path lives in `path[0..depth)` and is joined into a
 * JSON pointer only when an issue is reported, so valid input allocates nothing on the way down.
 */
export interface ValidationState {
  depth: number
  readonly path: (string | number)[]
  issues: ValidationIssue[]
  /** Above zero while trying `anyOf`/`oneOf`/`not` branches: failures are only counted, never described. */
  silent: number
  /** Nested `$ref` calls in flight; bounds schemas that recurse without consuming the instance. */
  refDepth: number
  readonly maxDepth: number
  /** JSON pointer of `path[0..baseDepth)`, when generated code already built it. */
  basePointer: string
  baseDepth: number
}

/** A compiled schema or keyword: true when `value` passes. Reports issues into `state` unless silent. */
export type Check = (value: unknown, state: ValidationState) => boolean

export function createState(maxDepth: number): ValidationState {
  return { depth: 0, path: [], issues: [], silent: 0, refDepth: 0, maxDepth, basePointer: '', baseDepth: 0 }
}

/** True when a failing check may stop early: nobody wants the details, or the issue budget is spent. */
export function shouldStop(state: ValidationState): boolean {
  return state.silent > 0 || state.issues.length >= MAX_ISSUES
}

/**
 * `/segment`, escaped, memoised: property names repeat across calls. Bounded in count and in key length, so
 * hostile keys (up to the argument size limit each) cannot make it hold megabytes.
 */
const pointerPieces = new Map<string | number, string>()
const POINTER_PIECES_LIMIT = 4096
const MEMOISED_SEGMENT_LENGTH = 64

export function pointerPiece(segment: string | number): string {
  let piece = pointerPieces.get(segment)
  if (piece === undefined) {
    piece = `/${escapePointerToken(segment)}`
    if (typeof segment === 'number' || segment.length <= MEMOISED_SEGMENT_LENGTH) {
      if (pointerPieces.size >= POINTER_PIECES_LIMIT) pointerPieces.clear()
      pointerPieces.set(segment, piece)
    }
  }
  return piece
}

export function currentPointer(state: ValidationState): string {
  let pointer = state.basePointer
  for (let index = state.baseDepth; index < state.depth; index++) pointer += pointerPiece(state.path[index]!)
  return pointer
}

/** Records an issue at the current instance path. Callers skip building `detail` when `state.silent > 0`. */
export function report(state: ValidationState, keyword: string, detail: string, pathSuffix?: string | number): void {
  if (state.issues.length >= MAX_ISSUES) return
  let path = currentPointer(state)
  if (pathSuffix !== undefined) path += pointerPiece(pathSuffix)
  state.issues.push(createIssue(path, keyword, detail))
}

/** An issue at the JSON pointer `path`: the message names the path and is cut to `MAX_MESSAGE_LENGTH`. */
export function createIssue(path: string, keyword: string, detail: string): ValidationIssue {
  return createIssueAt(issuePrefix(path), path, keyword, detail)
}

/** `at <path>: `, the start of every message about `path`. */
export function issuePrefix(path: string): string {
  return path === '' ? 'at (root): ' : `at ${path}: `
}

/** `createIssue` with the message prefix of `path` already built (several issues at one path share it). */
export function createIssueAt(prefix: string, path: string, keyword: string, detail: string): ValidationIssue {
  return issueWithMessage(path, keyword, prefix + detail)
}

/** An issue whose message (starting `at <path>: `) is already built; cut to `MAX_MESSAGE_LENGTH`. */
export function issueWithMessage(path: string, keyword: string, message: string): ValidationIssue {
  return {
    path,
    keyword,
    message: message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message,
  }
}

/**
 * Validates `child` (the member `key` of the current value) one level deeper. Instance nesting beyond
 * `maxDepth` becomes a `depth` issue instead of deeper recursion.
 */
export function descend(state: ValidationState, key: string | number, child: unknown, check: Check): boolean {
  const depth = state.depth
  if (depth >= state.maxDepth) {
    if (state.silent === 0) report(state, 'depth', `value nests deeper than ${state.maxDepth} levels`)
    return false
  }
  state.path[depth] = key
  state.depth = depth + 1
  const valid = check(child, state)
  state.depth = depth
  return valid
}
