// Cross-app access (enterprise-managed authorization, SEP-990): the user signed in to the enterprise identity
// provider once; this client trades that ID token there for an ID-JAG (RFC 8693 token exchange), then presents the
// ID-JAG to the MCP authorization server as an RFC 7523 `jwt-bearer` grant. No browser, no consent screen.
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js'
import { resourceUrlFromServerUrl } from '@modelcontextprotocol/sdk/shared/auth-utils.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { McpAuthorizationError, McpAuthorizationErrorCode } from './oauth-error.js'
import { MACHINE_TOKEN_GRANTS, type McpJwtAlgorithm } from './oauth-machine-client.js'
import { requestIdJag } from './oauth-token-exchange.js'

/** The enterprise identity provider that issued the user's ID token, and this client there. */
export interface McpCrossAppAccessIdentityProvider {
  /** Its token endpoint, which takes RFC 8693 token exchange: `https:`, or `http:` on a loopback host. */
  readonly tokenEndpoint: string | URL
  /** This client's id at the identity provider. */
  readonly clientId: string
  /** This client's secret there, sent over HTTP Basic; without it, `client_id` is sent in the form. */
  readonly clientSecret?: string
}

/** The user's ID token from the identity provider, or a function giving a current one each time one is needed. */
export type McpIdTokenSource = string | (() => string | Promise<string>)

/**
 * A client using cross-app access: it exchanges the user's `idToken` at `identityProvider` for an Identity
 * Assertion JWT Authorization Grant, then asks the MCP authorization server for an access token with it
 * (`urn:ietf:params:oauth:grant-type:jwt-bearer`), authenticating there as `clientId` with a client secret (HTTP
 * Basic) or a `private_key_jwt` assertion, as a `client_credentials` machine client does.
 */
export type McpOAuthCrossAppAccessClient =
  | {
      readonly grant: 'cross_app_access'
      readonly clientId: string
      readonly clientSecret: string
      readonly identityProvider: McpCrossAppAccessIdentityProvider
      readonly idToken: McpIdTokenSource
    }
  | {
      readonly grant: 'cross_app_access'
      readonly clientId: string
      readonly privateKey: string
      readonly algorithm: McpJwtAlgorithm
      readonly identityProvider: McpCrossAppAccessIdentityProvider
      readonly idToken: McpIdTokenSource
    }

/** Longest ID token taken from the host. */
const MAX_ID_TOKEN_LENGTH = 65_536
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** What the token request needs, checked once at connect time. */
export interface CrossAppAccessSettings {
  readonly tokenEndpoint: URL
  readonly clientId: string
  readonly clientSecret?: string
  readonly idToken: McpIdTokenSource
}

/** What the token request reads from the connection when the SDK asks for it. */
export interface CrossAppAccessContext {
  readonly serverUrl: URL
  /** Saved by the SDK's discovery before it prepares a token request. */
  readonly discoveryState: () => OAuthDiscoveryState | undefined
  /** The connection's bounded OAuth fetch. */
  readonly fetch: FetchLike
}

export function isCrossAppAccessClient(client: unknown): client is McpOAuthCrossAppAccessClient {
  return typeof client === 'object' && client !== null && (client as { grant?: unknown }).grant === 'cross_app_access'
}

/** Refuses an identity provider or ID token no exchange could use; a token or secret never appears in the message. */
export function crossAppAccessSettings(client: McpOAuthCrossAppAccessClient): CrossAppAccessSettings {
  const provider: unknown = client.identityProvider
  if (typeof provider !== 'object' || provider === null) {
    throw new TypeError('oauth.identityProvider must be an object with tokenEndpoint and clientId')
  }
  const { tokenEndpoint, clientId, clientSecret } = provider as Record<string, unknown>
  let endpoint: URL
  try {
    endpoint = new URL(tokenEndpoint instanceof URL ? tokenEndpoint.href : String(tokenEndpoint))
  } catch {
    throw new TypeError('oauth.identityProvider.tokenEndpoint must be an absolute URL')
  }
  if (!(endpoint.protocol === 'https:' || (endpoint.protocol === 'http:' && LOOPBACK_HOSTS.has(endpoint.hostname)))) {
    throw new TypeError('oauth.identityProvider.tokenEndpoint must be https (or http on a loopback host)')
  }
  if (typeof clientId !== 'string' || clientId.trim() === '') {
    throw new TypeError('oauth.identityProvider.clientId must be a non-empty string')
  }
  if (clientSecret !== undefined && (typeof clientSecret !== 'string' || clientSecret === '')) {
    throw new TypeError('oauth.identityProvider.clientSecret must be a non-empty string when given')
  }
  const idToken: unknown = client.idToken
  if (typeof idToken !== 'function' && (typeof idToken !== 'string' || idToken === '')) {
    throw new TypeError('oauth.idToken must be a non-empty string or a function returning one')
  }
  return {
    tokenEndpoint: endpoint,
    clientId,
    ...(clientSecret === undefined ? {} : { clientSecret }),
    idToken: idToken as McpIdTokenSource,
  }
}

/**
 * The provider's `prepareTokenRequest`: a fresh ID-JAG for the authorization server discovery found (its issuer is
 * the audience) and this MCP server (its resource metadata's `resource`), presented as the `jwt-bearer` grant.
 */
export function crossAppAccessTokenRequest(
  settings: CrossAppAccessSettings,
  context: CrossAppAccessContext,
): (scope: string | undefined) => Promise<URLSearchParams> {
  return async (scope) => {
    const discovery = context.discoveryState()
    const audience =
      discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl ?? context.serverUrl.origin
    const resource = discovery?.resourceMetadata?.resource ?? resourceUrlFromServerUrl(context.serverUrl).href
    const result = await requestIdJag(
      {
        tokenEndpoint: settings.tokenEndpoint,
        idToken: await currentIdToken(settings.idToken),
        audience,
        resource,
        ...(scope === undefined ? {} : { scope }),
        clientId: settings.clientId,
        ...(settings.clientSecret === undefined ? {} : { clientSecret: settings.clientSecret }),
      },
      context.fetch,
    )
    if (!result.ok) throw result.error
    const params = new URLSearchParams({ grant_type: MACHINE_TOKEN_GRANTS.cross_app_access, assertion: result.idJag })
    if (scope) params.set('scope', scope)
    return params
  }
}

async function currentIdToken(source: McpIdTokenSource): Promise<string> {
  const unavailable = (why: string, cause?: unknown) =>
    new McpAuthorizationError(
      McpAuthorizationErrorCode.ID_TOKEN_UNAVAILABLE,
      `cross-app access has no ID token to exchange: ${why}`,
      cause === undefined ? undefined : { cause },
    )
  let token: unknown
  try {
    token = typeof source === 'string' ? source : await source()
  } catch (cause) {
    throw unavailable('oauth.idToken() failed', cause)
  }
  if (typeof token !== 'string' || token === '' || token.length > MAX_ID_TOKEN_LENGTH) {
    throw unavailable(`oauth.idToken gave no string of 1 to ${MAX_ID_TOKEN_LENGTH} characters`)
  }
  return token
}
