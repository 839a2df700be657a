import { brandError } from 'qilin-tools/internal/errors/brand.js'

/** Why a resource, prompt or completion request to an upstream MCP server failed. Stable strings. */
export const McpCatalogErrorCode = {
  /** No connected server lists the resource URI, or matches it with a template. */
  UNKNOWN_RESOURCE: 'UNKNOWN_RESOURCE',
  /** No connected server lists a prompt by that name. */
  UNKNOWN_PROMPT: 'UNKNOWN_PROMPT',
  /** A URI, prompt name or argument is longer than the proxy accepts. */
  REQUEST_TOO_LARGE: 'REQUEST_TOO_LARGE',
  /** The server's answer is larger than `maxContentBytes`; it is not passed on. */
  ANSWER_TOO_LARGE: 'ANSWER_TOO_LARGE',
  /** The server does not offer what was asked (for example subscriptions). */
  NOT_SUPPORTED: 'NOT_SUPPORTED',
  /** The server is not connected right now. */
  UNAVAILABLE: 'UNAVAILABLE',
  /** The server answered with an error, timed out or closed the connection. */
  UPSTREAM_FAILED: 'UPSTREAM_FAILED',
} as const

/** The union of every `McpCatalogErrorCode`. */
export type McpCatalogErrorCode = (typeof McpCatalogErrorCode)[keyof typeof McpCatalogErrorCode]

/** A failed resource, prompt or completion request, with its stable code. */
export class McpCatalogError extends Error {
  readonly code: McpCatalogErrorCode

  constructor(code: McpCatalogErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'McpCatalogError'
    this.code = code
  }
}

/** Recognises an McpCatalogError from any copy of this package or realm. */
export const isMcpCatalogError = brandError(McpCatalogError, 'McpCatalogError')
