import type { CompleteResult } from '@modelcontextprotocol/sdk/types.js'
import { McpCatalogError, McpCatalogErrorCode } from './catalog-error.js'

/** The largest `resources/read` or `prompts/get` answer passed on, in UTF-8 bytes of its JSON. */
export const DEFAULT_MAX_CONTENT_BYTES = 4 * 1024 * 1024
/** MCP caps completion values at 100 per answer; longer values than this are left out. */
const MAX_COMPLETION_VALUES = 100
const MAX_COMPLETION_VALUE_LENGTH = 1024

/** Fails with `ANSWER_TOO_LARGE` when `answer` is past `maxBytes`; returns it otherwise. */
export function withinBytes<Answer>(server: string, what: string, answer: Answer, maxBytes: number): Answer {
  const text = JSON.stringify(answer) ?? ''
  // A UTF-8 byte is at least one UTF-16 unit and at most three: only the middle band needs counting.
  const bytes = text.length * 3 <= maxBytes ? text.length : Buffer.byteLength(text)
  if (bytes > maxBytes) {
    throw new McpCatalogError(
      McpCatalogErrorCode.ANSWER_TOO_LARGE,
      `MCP server "${server}" answered ${what} with ${bytes} bytes, over the ${maxBytes}-byte limit (maxContentBytes)`,
    )
  }
  return answer
}

/** A completion answer cut to MCP's 100 values, each a string of bounded length; counts are kept when numbers. */
export function boundedCompletion(answer: CompleteResult): CompleteResult {
  const completion: Partial<CompleteResult['completion']> = answer.completion ?? {}
  const listed = Array.isArray(completion.values) ? completion.values : []
  const values = listed
    .filter((value): value is string => typeof value === 'string' && value.length <= MAX_COMPLETION_VALUE_LENGTH)
    .slice(0, MAX_COMPLETION_VALUES)
  const total = typeof completion.total === 'number' && Number.isFinite(completion.total) ? completion.total : undefined
  const hasMore = listed.length > values.length || completion.hasMore === true
  return {
    completion: { values, ...(total === undefined ? {} : { total }), ...(hasMore ? { hasMore: true } : {}) },
  }
}

/** The empty answer for a server that does not complete. */
export const noCompletion: CompleteResult = Object.freeze({ completion: Object.freeze({ values: [] }) })
