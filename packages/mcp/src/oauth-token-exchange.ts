// The first leg of cross-app access (SEP-990, draft-ietf-oauth-identity-assertion-authz-grant): an RFC 8693 token
// exchange at the enterprise identity provider, which trades the user's ID token for an Identity Assertion JWT
// Authorization Grant (ID-JAG) addressed to one MCP authorization server and one MCP server.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { McpAuthorizationError, McpAuthorizationErrorCode } from './oauth-error.js'

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange'
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token'
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag'
/** Longest ID-JAG accepted: a signed JWT of a few claims is well under 2 KiB. */
export const MAX_ID_JAG_LENGTH = 16_384

/** One token exchange: who asks, for which authorization server (`audience`) and MCP server (`resource`). */
export interface IdJagRequest {
  readonly tokenEndpoint: URL
  readonly idToken: string
  /** The MCP authorization server's issuer identifier. */
  readonly audience: string
  /** The MCP server's resource identifier (RFC 8707). */
  readonly resource: string
  readonly scope?: string
  /** This client at the identity provider. */
  readonly clientId: string
  readonly clientSecret?: string
}

export type IdJagResult =
  | { readonly ok: true; readonly idJag: string }
  | { readonly ok: false; readonly error: McpAuthorizationError }

/** An RFC 6749 `error` code: printable ASCII without `"` or `\`, quoted only when it is one. */
const OAUTH_ERROR_CODE = /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,64}$/
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/

/** The form RFC 8693 §2.1 and the ID-JAG draft §4.3 name, with the client authenticated as RFC 6749 §2.3.1 says. */
export function tokenExchangeRequest(request: IdJagRequest): { headers: Record<string, string>; body: string } {
  const form = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT,
    requested_token_type: ID_JAG_TOKEN_TYPE,
    audience: request.audience,
    resource: request.resource,
    subject_token: request.idToken,
    subject_token_type: ID_TOKEN_TYPE,
  })
  if (request.scope !== undefined && request.scope !== '') form.set('scope', request.scope)
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  }
  if (request.clientSecret === undefined) form.set('client_id', request.clientId)
  else {
    const pair = `${encodeURIComponent(request.clientId)}:${encodeURIComponent(request.clientSecret)}`
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`
  }
  return { headers, body: form.toString() }
}

/**
 * Asks the identity provider for an ID-JAG. `fetch` is the connection's bounded OAuth fetch (deadline and byte
 * limit); everything in the answer is checked before use, and no token or secret appears in an error message.
 */
export async function requestIdJag(request: IdJagRequest, fetch: FetchLike): Promise<IdJagResult> {
  const where = `the identity provider at ${request.tokenEndpoint.origin}${request.tokenEndpoint.pathname.slice(0, 200)}`
  const fail = (code: McpAuthorizationErrorCode, message: string, cause?: unknown): IdJagResult => ({
    ok: false,
    error: new McpAuthorizationError(code, `${where} ${message}`, cause === undefined ? undefined : { cause }),
  })
  const { headers, body } = tokenExchangeRequest(request)
  let response: Response
  let text: string
  try {
    response = await fetch(request.tokenEndpoint, { method: 'POST', headers, body, redirect: 'manual' })
    text = await response.text()
  } catch (cause) {
    if (cause instanceof McpAuthorizationError) return { ok: false, error: cause }
    return fail(McpAuthorizationErrorCode.IDENTITY_PROVIDER_UNREACHABLE, 'could not be reached', cause)
  }
  const answer = parsedObject(text)
  if (response.status < 200 || response.status > 299) {
    const error = answer?.error
    const named = typeof error === 'string' && OAUTH_ERROR_CODE.test(error) ? ` with error "${error}"` : ''
    return fail(
      McpAuthorizationErrorCode.TOKEN_EXCHANGE_REFUSED,
      `refused the token exchange (HTTP ${response.status}${named})`,
    )
  }
  const invalid = (why: string) =>
    fail(McpAuthorizationErrorCode.INVALID_TOKEN_EXCHANGE_RESPONSE, `answered the token exchange ${why}`)
  if (answer === undefined) return invalid('with a body that is not a JSON object')
  const { access_token: idJag, issued_token_type: issuedType, token_type: tokenType } = answer
  if (issuedType !== ID_JAG_TOKEN_TYPE) {
    return invalid(`with issued_token_type ${describe(issuedType)}, not ${ID_JAG_TOKEN_TYPE}`)
  }
  if (typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'n_a') {
    return invalid(`with token_type ${describe(tokenType)}, not "N_A"`)
  }
  if (typeof idJag !== 'string' || idJag.length > MAX_ID_JAG_LENGTH || !JWT_SHAPE.test(idJag)) {
    return invalid(`without an access_token that is a JWT of at most ${MAX_ID_JAG_LENGTH} characters`)
  }
  return { ok: true, idJag }
}

function parsedObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/** A field's value in a message: a short string quoted, anything else by its type. */
function describe(value: unknown): string {
  if (value === undefined) return 'missing'
  if (typeof value === 'string') return OAUTH_ERROR_CODE.test(value) ? JSON.stringify(value) : 'an unprintable string'
  return `of type ${value === null ? 'null' : typeof value}`
}
