import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpAuthorizationError } from './oauth-error.js'

/** The error and its causes, outermost first: at most eight, and none past a cause that is not an object. */
export function causes(error: unknown): unknown[] {
  const chain: unknown[] = []
  for (let current = error; current !== undefined && chain.length < 8; current = (current as Error).cause) {
    chain.push(current)
    if (typeof current !== 'object' || current === null) break
  }
  return chain
}

/**
 * Whether a failed request was refused for authorization (401, 403, or a flow that could not finish): the server is
 * up and the session stands, so the request fails alone instead of marking the connection failed.
 */
export function isAuthorizationRefusal(error: unknown): boolean {
  return causes(error).some(
    (cause) =>
      cause instanceof McpAuthorizationError ||
      cause instanceof UnauthorizedError ||
      (cause instanceof StreamableHTTPError && (cause.code === 401 || cause.code === 403)),
  )
}
