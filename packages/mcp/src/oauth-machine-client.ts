import { createPrivateKey } from 'node:crypto'
import type { AddClientAuthentication, OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js'
import type { OAuthClientInformation, OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js'

/** Signing algorithms a `private_key_jwt` assertion may use (RFC 7518 asymmetric ones). */
export const MCP_JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
] as const
/** A JWS algorithm a `private_key_jwt` assertion may be signed with: RSA, RSA-PSS or ECDSA, never HMAC or `none`. */
export type McpJwtAlgorithm = (typeof MCP_JWT_ALGORITHMS)[number]

/**
 * A machine-to-machine client (the `client_credentials` grant): no browser, no redirect. It authenticates to the
 * token endpoint with a client secret (HTTP Basic) or with a JWT assertion signed by its private key
 * (`private_key_jwt`, RFC 7523), a PEM key in PKCS#8 or PKCS#1/SEC1 form.
 */
export type McpOAuthMachineClient =
  | { readonly grant: 'client_credentials'; readonly clientId: string; readonly clientSecret: string }
  | {
      readonly grant: 'client_credentials'
      readonly clientId: string
      readonly privateKey: string
      readonly algorithm: McpJwtAlgorithm
    }

/** What the SDK's provider needs from a machine client, checked once at connect time. */
export interface MachineCredentials {
  readonly clientInformation: OAuthClientInformation
  readonly clientMetadata: OAuthClientMetadata
  readonly addClientAuthentication?: AddClientAuthentication
}

export function isMachineClient(client: unknown): client is McpOAuthMachineClient {
  return typeof client === 'object' && client !== null && 'grant' in client
}

const KEY_TYPES: Readonly<Record<string, string>> = { RS: 'rsa', PS: 'rsa', ES: 'ec' }
const CURVES: Readonly<Record<string, string>> = { ES256: 'prime256v1', ES384: 'secp384r1', ES512: 'secp521r1' }

/** The grants of clients that need no browser, and the OAuth grant type each asks the token endpoint for. */
export const MACHINE_TOKEN_GRANTS = {
  client_credentials: 'client_credentials',
  cross_app_access: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
} as const

/**
 * Refuses a machine client (`client_credentials`, or cross-app access, which authenticates the same way) that no
 * token endpoint could take; a key or secret never appears in the message.
 */
export function machineCredentials(
  client: { readonly grant: keyof typeof MACHINE_TOKEN_GRANTS; readonly clientId: string },
  clientName: string,
  scopes: readonly string[] | undefined,
): MachineCredentials {
  const fields = client as unknown as Record<string, unknown>
  const grant = fields.grant
  if (grant !== 'client_credentials' && grant !== 'cross_app_access') {
    throw new TypeError(
      `oauth.grant must be 'client_credentials' or 'cross_app_access' (got ${JSON.stringify(String(grant))})`,
    )
  }
  if (typeof fields.clientId !== 'string' || fields.clientId.trim() === '') {
    throw new TypeError('oauth.clientId must be a non-empty string')
  }
  const hasSecret = 'clientSecret' in fields
  const hasKey = 'privateKey' in fields
  if (hasSecret === hasKey) {
    throw new TypeError(`oauth with grant '${grant}' takes either clientSecret or privateKey, not both`)
  }
  const metadata = (method: string): OAuthClientMetadata => ({
    client_name: clientName,
    redirect_uris: [],
    grant_types: [MACHINE_TOKEN_GRANTS[grant]],
    token_endpoint_auth_method: method,
    ...(scopes === undefined || scopes.length === 0 ? {} : { scope: scopes.join(' ') }),
  })
  if (hasSecret) {
    if (typeof fields.clientSecret !== 'string' || fields.clientSecret === '') {
      throw new TypeError('oauth.clientSecret must be a non-empty string')
    }
    return {
      clientInformation: { client_id: fields.clientId, client_secret: fields.clientSecret },
      clientMetadata: metadata('client_secret_basic'),
    }
  }
  const algorithm = fields.algorithm
  if (typeof algorithm !== 'string' || !(MCP_JWT_ALGORITHMS as readonly string[]).includes(algorithm)) {
    throw new TypeError(`oauth.algorithm must be one of ${MCP_JWT_ALGORITHMS.join(', ')}`)
  }
  return {
    clientInformation: { client_id: fields.clientId },
    clientMetadata: metadata('private_key_jwt'),
    addClientAuthentication: createPrivateKeyJwtAuth({
      issuer: fields.clientId,
      subject: fields.clientId,
      privateKey: pkcs8(fields.privateKey, algorithm),
      alg: algorithm,
    }),
  }
}

/** The key as PKCS#8 PEM (what the SDK signs with), refused now when it cannot sign with `algorithm`. */
function pkcs8(privateKey: unknown, algorithm: string): string {
  const refused = (why: string) => new TypeError(`oauth.privateKey ${why}`)
  if (typeof privateKey !== 'string' || privateKey.length > 65_536) {
    throw refused('must be a PEM private key string of at most 64 KiB')
  }
  let key: ReturnType<typeof createPrivateKey>
  try {
    key = createPrivateKey({ key: privateKey, format: 'pem' })
  } catch {
    throw refused('is not a readable PEM private key')
  }
  const wanted = KEY_TYPES[algorithm.slice(0, 2)]
  if (key.asymmetricKeyType !== wanted && !(wanted === 'rsa' && key.asymmetricKeyType === 'rsa-pss')) {
    throw refused(`is a ${key.asymmetricKeyType ?? 'unknown'} key, which cannot sign ${algorithm}`)
  }
  const curve = CURVES[algorithm]
  if (curve !== undefined && key.asymmetricKeyDetails?.namedCurve !== curve) {
    throw refused(`is on curve ${key.asymmetricKeyDetails?.namedCurve ?? 'unknown'}, and ${algorithm} needs ${curve}`)
  }
  return key.export({ type: 'pkcs8', format: 'pem' }).toString()
}

/** Where a machine client's tokens and discovery state live: the connection's record in its token store. */
export type MachineStorage = Pick<
  OAuthClientProvider,
  'tokens' | 'saveTokens' | 'invalidateCredentials' | 'saveDiscoveryState' | 'discoveryState'
>

/** The token request of the `client_credentials` grant. */
function clientCredentialsRequest(scope: string | undefined): URLSearchParams {
  const params = new URLSearchParams({ grant_type: 'client_credentials' })
  if (scope) params.set('scope', scope)
  return params
}

/**
 * The SDK's provider for a machine client: without a redirect URL the SDK asks the token endpoint directly, with
 * the grant `prepareTokenRequest` names (`client_credentials` unless given), whenever it has no usable token.
 */
export function machineProvider(
  credentials: MachineCredentials,
  storage: MachineStorage,
  refuseInteraction: () => never,
  prepareTokenRequest: (
    scope: string | undefined,
  ) => URLSearchParams | Promise<URLSearchParams> = clientCredentialsRequest,
): OAuthClientProvider {
  return {
    redirectUrl: undefined,
    clientMetadata: credentials.clientMetadata,
    clientInformation: () => credentials.clientInformation,
    ...storage,
    redirectToAuthorization: refuseInteraction,
    saveCodeVerifier() {},
    codeVerifier: refuseInteraction,
    prepareTokenRequest,
    ...(credentials.addClientAuthentication === undefined
      ? {}
      : { addClientAuthentication: credentials.addClientAuthentication }),
  }
}
