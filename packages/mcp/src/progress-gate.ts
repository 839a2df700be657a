import type { Progress } from '@modelcontextprotocol/sdk/types.js'

/** One progress report of a running MCP tool call, tagged with the connection, tool and call it belongs to. */
export interface McpProgress {
  /** The `name` of the connection it came from. */
  readonly server: string
  /** The server's own tool name. */
  readonly tool: string
  /** The id of the pipeline call that made the request. */
  readonly callId: string
  readonly progress: number
  readonly total?: number
  readonly message?: string
}

/** Progress reports per call and second that are passed on; the rest of that second is dropped. */
export const MAX_PROGRESS_PER_SECOND = 20
const MAX_PROGRESS_MESSAGE_LENGTH = 1_024

/** A report with only what a host can show: finite numbers and a message of bounded length. */
type Bounded = Pick<McpProgress, 'progress' | 'total' | 'message'>

/**
 * A gate for one call's progress reports: it passes at most `MAX_PROGRESS_PER_SECOND` a second and only reports
 * whose numbers are finite, and cuts long messages. A server flooding progress costs a counter, not a delivery each;
 * progress is cumulative, so the next report that passes says everything a dropped one did.
 */
export function createProgressGate(now = () => Date.now()): (update: Progress) => Bounded | undefined {
  let windowStart = Number.NEGATIVE_INFINITY
  let passed = 0
  return (update) => {
    if (typeof update.progress !== 'number' || !Number.isFinite(update.progress)) return undefined
    const time = now()
    if (time - windowStart >= 1000) {
      windowStart = time
      passed = 0
    }
    if (passed >= MAX_PROGRESS_PER_SECOND) return undefined
    passed++
    const total = typeof update.total === 'number' && Number.isFinite(update.total) ? update.total : undefined
    const message =
      typeof update.message === 'string' ? update.message.slice(0, MAX_PROGRESS_MESSAGE_LENGTH) : undefined
    return {
      progress: update.progress,
      ...(total === undefined ? {} : { total }),
      ...(message === undefined ? {} : { message }),
    }
  }
}
