import type { LoggingLevel, LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js'
import type { JsonValue } from '../json-schema/json-value.js'

/** A log message an MCP server sent (`notifications/message`), tagged with the server it came from. */
export interface McpLogMessage {
  /** The `name` of the connection it came from. */
  readonly server: string
  readonly level: LoggingLevel
  readonly logger?: string
  /** The server's data, or, past 16 KiB of JSON, a string saying how much was left out. */
  readonly data: JsonValue
}

export const MAX_LOG_DATA_BYTES = 16_384
const MAX_LOGGER_LENGTH = 128
/** Messages per second a server may send before the rest of that second is dropped and counted. */
export const MAX_LOG_MESSAGES_PER_SECOND = 100

/** A server's log notification as data of bounded size: a logger name and data a host can store or forward. */
export function boundedLogMessage(server: string, params: LoggingMessageNotification['params']): McpLogMessage {
  const logger = typeof params.logger === 'string' ? params.logger.slice(0, MAX_LOGGER_LENGTH) : undefined
  let data: JsonValue
  try {
    const text = JSON.stringify(params.data ?? null)
    data =
      text.length <= MAX_LOG_DATA_BYTES
        ? (JSON.parse(text) as JsonValue)
        : `${text.slice(0, MAX_LOG_DATA_BYTES)}… [${text.length - MAX_LOG_DATA_BYTES} more characters left out]`
  } catch {
    data = '[log data that is not JSON was left out]'
  }
  return { server, level: params.level, ...(logger === undefined ? {} : { logger }), data }
}

/**
 * Passes at most `MAX_LOG_MESSAGES_PER_SECOND` messages a second to `deliver`; the rest are counted, and the count
 * is delivered as one `warning` before the next message that passes. A flood costs a counter, not a delivery each.
 */
export function rateLimitedLog(server: string, deliver: (message: McpLogMessage) => void, now = () => Date.now()) {
  let windowStart = 0
  let passed = 0
  let dropped = 0
  return (message: McpLogMessage): void => {
    const time = now()
    if (time - windowStart >= 1000) {
      windowStart = time
      passed = 0
    }
    if (passed >= MAX_LOG_MESSAGES_PER_SECOND) {
      dropped++
      return
    }
    passed++
    if (dropped > 0) {
      const count = dropped
      dropped = 0
      deliver({
        server,
        level: 'warning',
        data: `${count} log messages from this server were dropped (over ${MAX_LOG_MESSAGES_PER_SECOND} a second)`,
      })
    }
    deliver(message)
  }
}
