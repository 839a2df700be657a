import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import { isToolError, ToolError } from 'qilin-tools/internal/errors/tool-error.js'

/** How a failed request affects the connection. */
export type CallFailureKind = 'closed' | 'timeout' | 'cancelled' | 'transport' | 'server'

export function classifyCallFailure(error: unknown, signal: AbortSignal | undefined): CallFailureKind {
  if (signal?.aborted === true) return 'cancelled'
  if (error instanceof McpError) {
    if (error.code === ErrorCode.ConnectionClosed) return 'closed'
    if (error.code === ErrorCode.RequestTimeout) return 'timeout'
    return 'server'
  }
  return 'transport'
}

const describe = {
  closed: (server: string) => `MCP server "${server}" closed the connection during the call`,
  timeout: (server: string, detail: string) => `MCP server "${server}" did not answer in time (${detail})`,
  cancelled: (server: string) => `the call to MCP server "${server}" was cancelled`,
  transport: (server: string, detail: string) => `MCP server "${server}" could not be reached: ${detail}`,
  server: (server: string, detail: string) => `MCP server "${server}" rejected the call: ${detail}`,
} satisfies Record<CallFailureKind, (server: string, detail: string) => string>

/** A failed request as the `TOOL_ERROR` the model reads, always naming the server. */
export function callFailure(server: string, kind: CallFailureKind, error: unknown): ToolError {
  if (isToolError(error)) return error
  const detail = thrownMessage(error)
  return new ToolError({ code: ToolErrorCode.TOOL_ERROR, message: describe[kind](server, detail) }, { cause: error })
}

export function unavailable(server: string, reason: string): ToolError {
  return new ToolError({ code: ToolErrorCode.TOOL_ERROR, message: `MCP server "${server}" is unavailable: ${reason}` })
}
