import type { McpLogMessage } from '@qilin-tools/mcp/internal/log-messages.js'
import { terminalText } from './terminal-text.js'

/** MCP log levels, least severe first (RFC 5424's order). */
const SEVERITY = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
} satisfies Record<McpLogMessage['level'], number>

/** Log lines one command prints at most; then one line says the rest are not shown. */
export const MAX_PRINTED_LOG_LINES = 50
const MAX_LOG_LINE_LENGTH = 300

/**
 * Prints the log messages of the configured MCP servers as single stderr lines, `[server] level: text`, from `info`
 * up (debug is left out), each cut to one terminal line, at most `MAX_PRINTED_LOG_LINES` for the whole command: a
 * chatty server cannot bury the program's own output.
 */
export function mcpLogPrinter(printLine: (line: string) => void): (message: McpLogMessage) => void {
  let printed = 0
  return (message) => {
    if (SEVERITY[message.level] < SEVERITY.info || printed > MAX_PRINTED_LOG_LINES) return
    printed += 1
    if (printed > MAX_PRINTED_LOG_LINES) {
      printLine(`further log messages of MCP servers are not shown (${MAX_PRINTED_LOG_LINES} were)`)
      return
    }
    const source = message.logger === undefined ? message.server : `${message.server}/${message.logger}`
    const text = typeof message.data === 'string' ? message.data : JSON.stringify(message.data)
    printLine(terminalText(`[${source}] ${message.level}: ${text}`, MAX_LOG_LINE_LENGTH))
  }
}
