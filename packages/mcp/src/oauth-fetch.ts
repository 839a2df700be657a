import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { McpAuthorizationError, McpAuthorizationErrorCode } from './oauth-error.js'
import { NULL_BODY_STATUSES, withBody } from './rebuilt-response.js'

export interface AuthFetchOptions {
  /** The MCP endpoint: its requests are streams the client times itself, and pass through unbounded. */
  readonly serverUrl: URL
  /** Per request to anything else (metadata, registration, token), headers and body together. */
  readonly timeoutMs: number
  /** Largest body read from anything else. */
  readonly maxBytes: number
  /** Called when the MCP endpoint answers 403 `insufficient_scope`: a refresh cannot widen scope. */
  readonly onInsufficientScope: () => void
  readonly fetch?: FetchLike
}

function sameEndpoint(url: URL, serverUrl: URL): boolean {
  return url.origin === serverUrl.origin && url.pathname === serverUrl.pathname && url.search === serverUrl.search
}

async function boundedBody(response: Response, maxBytes: number, where: string): Promise<Uint8Array> {
  const tooLarge = () =>
    new McpAuthorizationError(
      McpAuthorizationErrorCode.RESPONSE_TOO_LARGE,
      `${where} answered with more than ${maxBytes} bytes; the OAuth flow stopped reading`,
    )
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel()
    throw tooLarge()
  }
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = response.body?.getReader()
  if (reader === undefined) return new Uint8Array()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel()
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

/**
 * The fetch the transport and the SDK's `auth()` use. Every request but the MCP endpoint's own (metadata
 * discovery, registration, token, refresh) gets a deadline for headers and body and a byte limit on its body, so an
 * authorization server that hangs or answers gigabytes fails the flow with a code instead of holding it. Redirects
 * are the SDK's business (`redirect: 'manual'`, same origin, at most five), and each hop passes through here.
 */
export function authFetch(options: AuthFetchOptions): FetchLike {
  const base = options.fetch ?? fetch
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input.href)
    if (sameEndpoint(url, options.serverUrl)) {
      const response = await base(input, init)
      if (response.status === 403 && extractWWWAuthenticateParams(response).error === 'insufficient_scope') {
        options.onInsufficientScope()
      }
      return response
    }
    const where = `${url.origin}${url.pathname.slice(0, 200)}`
    const deadline = AbortSignal.timeout(options.timeoutMs)
    const signal = init?.signal == null ? deadline : AbortSignal.any([init.signal, deadline])
    try {
      const response = await base(input, { ...init, signal })
      const body = NULL_BODY_STATUSES.has(response.status) ? null : await boundedBody(response, options.maxBytes, where)
      return withBody(response, body)
    } catch (cause) {
      if (deadline.aborted && !(cause instanceof McpAuthorizationError)) {
        throw new McpAuthorizationError(
          McpAuthorizationErrorCode.REQUEST_TIMEOUT,
          `${where} did not answer within ${options.timeoutMs} ms`,
          { cause },
        )
      }
      throw cause
    }
  }
}
