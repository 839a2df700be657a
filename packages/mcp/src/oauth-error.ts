import { brandError } from 'qilin-tools/internal/errors/brand.js'

/** Why an MCP server's OAuth authorization could not be completed. */
export const McpAuthorizationErrorCode = {
  /** The server needs a person to authorize in a browser, and this host has no `openBrowser`. */
  INTERACTION_REQUIRED: 'INTERACTION_REQUIRED',
  /** Nobody came back to the loopback redirect listener in time. */
  AUTHORIZATION_TIMEOUT: 'AUTHORIZATION_TIMEOUT',
  /** The redirect carried a `state` other than the one this flow sent: a forged or crossed redirect. */
  STATE_MISMATCH: 'STATE_MISMATCH',
  /** The authorization server redirected back with an `error` (the user declined, or the request was refused). */
  AUTHORIZATION_DENIED: 'AUTHORIZATION_DENIED',
  /** The authorization URL is not `https:` (or `http:` on a loopback host), so it is not handed to a browser. */
  UNSAFE_AUTHORIZATION_URL: 'UNSAFE_AUTHORIZATION_URL',
  /** An authorization or resource server answered with a body past the byte limit. */
  RESPONSE_TOO_LARGE: 'RESPONSE_TOO_LARGE',
  /** An authorization or resource server did not answer within the request timeout. */
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  /** The server still refused after the bounded number of authorizations for one request. */
  RETRIES_EXHAUSTED: 'RETRIES_EXHAUSTED',
  /** Cross-app access: the host's `idToken` (or the function giving it) failed or gave no usable token. */
  ID_TOKEN_UNAVAILABLE: 'ID_TOKEN_UNAVAILABLE',
  /** Cross-app access: the identity provider's token endpoint could not be reached. */
  IDENTITY_PROVIDER_UNREACHABLE: 'IDENTITY_PROVIDER_UNREACHABLE',
  /** Cross-app access: the identity provider refused the token exchange (an OAuth error or a non-2xx status). */
  TOKEN_EXCHANGE_REFUSED: 'TOKEN_EXCHANGE_REFUSED',
  /** Cross-app access: the identity provider answered 2xx with something other than an Identity Assertion JWT grant. */
  INVALID_TOKEN_EXCHANGE_RESPONSE: 'INVALID_TOKEN_EXCHANGE_RESPONSE',
} as const

/** One of the `McpAuthorizationErrorCode` values. */
export type McpAuthorizationErrorCode = (typeof McpAuthorizationErrorCode)[keyof typeof McpAuthorizationErrorCode]

/** An OAuth authorization for an MCP server that failed, with a stable `code` and a one-line message. */
export class McpAuthorizationError extends Error {
  readonly code: McpAuthorizationErrorCode

  constructor(code: McpAuthorizationErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'McpAuthorizationError'
    this.code = code
  }
}

/** Recognises an McpAuthorizationError from any copy of this package or realm. */
export const isMcpAuthorizationError = brandError(McpAuthorizationError, 'McpAuthorizationError')
