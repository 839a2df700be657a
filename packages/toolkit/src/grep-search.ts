import type { LinearPattern } from 'qilin-tools/internal/json-schema/linear-regex.js'
import { createTimeSlice } from './time-slice.js'

/** The linear engine costs pattern size times line length; this keeps one long line from stalling the host. */
const MAX_MATCHED_LINE_CHARACTERS = 16 * 1024

/** One line `grep` matched, with its position and the lines around it. */
export type GrepMatch = {
  path: string
  /** 1-based. */
  line: number
  text: string
  before: string[]
  after: string[]
}

export interface LineSearch {
  readonly expression: LinearPattern
  /** Lines of context on each side. */
  readonly context: number
  readonly maxResults: number
  readonly signal: AbortSignal
}

/**
 * Appends the lines of `text` that match to `matches`, with their context, and returns true when `maxResults`
 * stopped the search. One pass, keeping only the context window: a file of millions of lines makes no array of
 * them, and the pass gives the event loop a turn every few milliseconds.
 */
export async function searchLines(
  text: string,
  path: string,
  search: LineSearch,
  matches: GrepMatch[],
): Promise<boolean> {
  const slice = createTimeSlice(64)
  const before: string[] = []
  const awaitingAfter: GrepMatch[] = []
  let stopped = false
  let number = 0
  for (const line of linesOf(text)) {
    number++
    for (const match of awaitingAfter) match.after.push(line)
    while (awaitingAfter[0] !== undefined && awaitingAfter[0].after.length === search.context) awaitingAfter.shift()
    if (stopped) {
      if (awaitingAfter.length === 0) return true
      continue
    }
    const matched = line.length > MAX_MATCHED_LINE_CHARACTERS ? line.slice(0, MAX_MATCHED_LINE_CHARACTERS) : line
    if (search.expression.test(matched)) {
      if (matches.length === search.maxResults) {
        stopped = true
        if (awaitingAfter.length === 0) return true
      } else {
        const match: GrepMatch = { path, line: number, text: line, before: [...before], after: [] }
        matches.push(match)
        if (search.context > 0) awaitingAfter.push(match)
      }
    }
    if (search.context > 0) {
      before.push(line)
      if (before.length > search.context) before.shift()
    }
    if (slice.due()) await slice.pause(search.signal)
  }
  return stopped
}

/** Lines split at `\n` or `\r\n`; a final line break does not start another line, and empty text has none. */
function* linesOf(text: string): Generator<string> {
  let start = 0
  while (start < text.length) {
    const next = text.indexOf('\n', start)
    if (next === -1) {
      yield text.slice(start)
      return
    }
    yield text.slice(start, next > start && text.charCodeAt(next - 1) === 0x0d ? next - 1 : next)
    start = next + 1
  }
}
