import type { McpOAuthCrossAppAccessClient } from './oauth-cross-app-access.js'
import type { McpOAuthMachineClient } from './oauth-machine-client.js'

/**
 * Who this client is to the authorization server: `true` registers dynamically (RFC 7591), `clientId` (and
 * `clientSecret`) is a client registered beforehand, `clientMetadataUrl` is an HTTPS URL serving this client's
 * metadata document, used as its `client_id` where the server supports that and dynamic registration elsewhere;
 * `grant: 'client_credentials'` is a machine client that needs no browser, and `grant: 'cross_app_access'` one that
 * trades the user's ID token from an enterprise identity provider for its access.
 */
export type McpOAuthClient =
  | true
  | { readonly clientId: string; readonly clientSecret?: string }
  | { readonly clientMetadataUrl: string }
  | McpOAuthMachineClient
  | McpOAuthCrossAppAccessClient

/** How this client presents itself to the authorization server; each is optional. */
export interface McpOAuthPresentation {
  /**
   * `client_name` of a dynamic registration, shown to the person who approves.
   * @default 'qilin-tools'
   */
  readonly clientName?: string
  /**
   * Scopes asked for when neither the server's 401 nor its resource metadata names any (the SDK's order).
   * @default none
   */
  readonly scopes?: readonly string[]
  /**
   * The loopback redirect listener's port, for an authorization server that holds a client to the exact redirect
   * URI it registered (`http://127.0.0.1:<port>/callback`).
   * @default a port the system picks, each flow
   */
  readonly redirectPort?: number
}

/** Opens the authorization URL in a browser (or tells a person where to go). */
export type McpOpenBrowser = (authorizationUrl: URL) => void | Promise<void>

const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/

/** Refuses what no authorization server could take: a port outside 1–65535, a scope that is no RFC 6749 token. */
export function checkedPresentation(presentation: McpOAuthPresentation): McpOAuthPresentation {
  const { redirectPort, scopes, clientName } = presentation
  if (redirectPort !== undefined && !(Number.isInteger(redirectPort) && redirectPort >= 1 && redirectPort <= 65_535)) {
    throw new TypeError(`oauthPresentation.redirectPort must be an integer from 1 to 65535 (got ${redirectPort})`)
  }
  for (const scope of scopes ?? []) {
    if (!SCOPE_TOKEN.test(scope))
      throw new TypeError(`oauthPresentation.scopes: ${JSON.stringify(scope)} is not a scope`)
  }
  if (clientName !== undefined && clientName.trim() === '') {
    throw new TypeError('oauthPresentation.clientName must not be empty')
  }
  return presentation
}
