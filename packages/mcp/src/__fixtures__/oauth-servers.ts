/**
 * A real authorization server and an MCP server that it protects, on one loopback port, for the OAuth tests:
 * RFC 9728 resource metadata, RFC 8414 server metadata, dynamic registration, an authorization endpoint that
 * approves at once with a redirect, a token endpoint that checks PKCE (S256), the redirect URI and client
 * secrets and issues refresh tokens (and, for machine clients, the `client_credentials` grant authenticated with a
 * secret over HTTP Basic or with a `private_key_jwt` assertion whose signature it checks), and an MCP endpoint (the SDK's `McpServer`) that answers 401 without a valid
 * token and 403 `insufficient_scope` when a method or tool needs more scope than the token has. Stateless: each
 * request gets its own server and transport (no session id generator).
 */
import { createHash, type KeyObject, randomBytes, verify } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'

export interface OAuthFixtureOptions {
  /** The scopes a request needs, by method and (for `tools/call`) tool name. Default `['basic']`. */
  readonly scopesFor?: (method: string, tool: string | undefined) => readonly string[]
  /** Scopes the server grants at most; a request for others is narrowed to these. Default `basic` and `write`. */
  readonly grantable?: readonly string[]
  /** Default true. */
  readonly issueRefreshTokens?: boolean
  /** A client registered beforehand. */
  readonly preRegistered?: { readonly clientId: string; readonly clientSecret: string }
  /**
   * Machine clients for the `client_credentials` grant: one with `clientSecret` authenticates over HTTP Basic, one
   * with `publicKey` by a JWT assertion signed with the matching private key (ES256 or RS256).
   */
  readonly machineClients?: readonly {
    readonly clientId: string
    readonly clientSecret?: string
    readonly publicKey?: KeyObject
  }[]
  /**
   * Takes the RFC 7523 `jwt-bearer` grant from a machine client when the assertion is an ID-JAG this returns the
   * claims of (cross-app access); the claims' `aud`, `resource` and `client_id` must name this server and the client.
   */
  readonly idJagClaims?: (assertion: string) => Readonly<Record<string, string>> | undefined
  /** Answers a request instead of the fixture (return true), for the hostile tests. */
  readonly override?: (request: IncomingMessage, response: ServerResponse, origin: string) => boolean
}

export interface Authorization {
  readonly clientId: string
  readonly scope: string | undefined
  readonly redirectUri: string
  readonly codeChallengeMethod: string | undefined
  readonly resource: string | undefined
}

export interface OAuthFixture {
  readonly origin: string
  readonly mcpUrl: string
  readonly registrations: Record<string, unknown>[]
  readonly authorizations: Authorization[]
  readonly tokenRequests: Record<string, string>[]
  /** How each token request authenticated its client: `basic`, `post`, `private_key_jwt` or `refused`. */
  readonly tokenAuthentications: string[]
  /** Every path requested, in order. */
  readonly paths: string[]
  /** Makes every access token issued so far invalid, as if each had expired. */
  expireAccessTokens(): void
  /** Issues an access token directly, for a static `Authorization` header. */
  issueAccessToken(scopes: readonly string[]): string
  stop(): Promise<void>
}

interface Client {
  readonly secret?: string
}

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer'
const JWT_HASHES: Readonly<Record<string, string>> = { ES256: 'sha256', RS256: 'sha256' }

/** The client an RFC 7523 assertion names, when its signature, issuer, subject, audience and expiry all hold. */
function assertedClient(assertion: string, keys: ReadonlyMap<string, KeyObject>, audience: string) {
  const [header, payload, signature] = assertion.split('.')
  if (header === undefined || payload === undefined || signature === undefined) return undefined
  const decode = (part: string) =>
    JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>
  const { alg } = decode(header)
  const claims = decode(payload)
  const key = typeof claims.sub === 'string' ? keys.get(claims.sub) : undefined
  const hash = typeof alg === 'string' ? JWT_HASHES[alg] : undefined
  if (key === undefined || hash === undefined) return undefined
  const signed = verify(
    hash,
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  )
  const audiences = [audience, `${audience}/`]
  const fresh = typeof claims.exp === 'number' && claims.exp > Date.now() / 1000
  if (!signed || !fresh || claims.iss !== claims.sub || !audiences.includes(String(claims.aud))) return undefined
  return claims.sub as string
}

const token = () => randomBytes(16).toString('hex')
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url')

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > 1_000_000) throw new Error('request body too large for the fixture')
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'protected', version: '1.0.0' })
  server.registerTool('echo', { description: 'Echoes.' }, () => ({ content: [{ type: 'text', text: 'echoed' }] }))
  server.registerTool('publish', { description: 'Needs write scope.' }, () => ({
    content: [{ type: 'text', text: 'published' }],
  }))
  return server
}

export async function startOAuthFixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const scopesFor = options.scopesFor ?? (() => ['basic'])
  const grantable = new Set(options.grantable ?? ['basic', 'write'])
  const clients = new Map<string, Client>()
  if (options.preRegistered) clients.set(options.preRegistered.clientId, { secret: options.preRegistered.clientSecret })
  const machineSecrets = new Map<string, string>()
  const machineKeys = new Map<string, KeyObject>()
  for (const machine of options.machineClients ?? []) {
    if (machine.clientSecret !== undefined) machineSecrets.set(machine.clientId, machine.clientSecret)
    if (machine.publicKey !== undefined) machineKeys.set(machine.clientId, machine.publicKey)
  }
  const tokenAuthentications: string[] = []
  const codes = new Map<string, { challenge: string; redirectUri: string; clientId: string; scopes: string[] }>()
  const accessTokens = new Map<string, readonly string[]>()
  const refreshTokens = new Map<string, readonly string[]>()
  const registrations: Record<string, unknown>[] = []
  const authorizations: Authorization[] = []
  const tokenRequests: Record<string, string>[] = []
  const paths: string[] = []
  let origin = ''

  const issue = (scopes: readonly string[]) => {
    const access = token()
    accessTokens.set(access, scopes)
    const refresh = options.issueRefreshTokens === false ? undefined : token()
    if (refresh !== undefined) refreshTokens.set(refresh, scopes)
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: 3600,
      scope: scopes.join(' '),
      ...(refresh === undefined ? {} : { refresh_token: refresh }),
    }
  }

  const clientAuthenticated = (request: IncomingMessage, form: URLSearchParams): string | undefined => {
    const basic = request.headers.authorization?.match(/^Basic (.+)$/)?.[1]
    const [id, secret] = basic
      ? Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent)
      : [form.get('client_id') ?? undefined, form.get('client_secret') ?? undefined]
    const client = id === undefined ? undefined : clients.get(id)
    if (client === undefined || (client.secret !== undefined && client.secret !== secret)) return undefined
    return id
  }

  /** A machine client authenticated by Basic secret or signed assertion; nothing else may use this grant. */
  const machineAuthenticated = (request: IncomingMessage, form: URLSearchParams): string | undefined => {
    const basic = request.headers.authorization?.match(/^Basic (.+)$/)?.[1]
    if (basic !== undefined) {
      tokenAuthentications.push('basic')
      const [id = '', secret] = Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent)
      return machineSecrets.has(id) && machineSecrets.get(id) === secret ? id : undefined
    }
    if (form.get('client_assertion_type') === JWT_BEARER) {
      tokenAuthentications.push('private_key_jwt')
      return assertedClient(form.get('client_assertion') ?? '', machineKeys, origin)
    }
    tokenAuthentications.push(form.has('client_secret') ? 'post' : 'none')
    return undefined
  }

  const resourceMetadataUrl = () => `${origin}/.well-known/oauth-protected-resource/mcp`
  const challenge = (response: ServerResponse, status: 401 | 403, scopes: readonly string[]) => {
    const error = status === 401 ? 'invalid_token' : 'insufficient_scope'
    json(
      response,
      status,
      { error },
      {
        'www-authenticate': `Bearer error="${error}", scope="${scopes.join(' ')}", resource_metadata="${resourceMetadataUrl()}"`,
      },
    )
  }

  const routes: Record<string, (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<void>> = {
    'GET /.well-known/oauth-protected-resource/mcp': async (_request, response) =>
      json(response, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] }),
    'GET /.well-known/oauth-authorization-server': async (_request, response) =>
      json(response, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', JWT_BEARER_GRANT],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic', 'private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ['ES256', 'RS256'],
      }),
    'POST /register': async (request, response) => {
      const metadata = JSON.parse(await readBody(request)) as Record<string, unknown>
      registrations.push(metadata)
      const clientId = `client-${registrations.length}`
      clients.set(clientId, {})
      json(response, 201, { ...metadata, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000) })
    },
    'GET /authorize': async (_request, response, url) => {
      const query = url.searchParams
      const clientId = query.get('client_id') ?? ''
      const redirectUri = query.get('redirect_uri') ?? ''
      const scope = query.get('scope') ?? undefined
      authorizations.push({
        clientId,
        scope,
        redirectUri,
        codeChallengeMethod: query.get('code_challenge_method') ?? undefined,
        resource: query.get('resource') ?? undefined,
      })
      const codeChallenge = query.get('code_challenge')
      if (!clients.has(clientId) || codeChallenge === null || !/^http:\/\/127\.0\.0\.1:\d+\//.test(redirectUri)) {
        return json(response, 400, { error: 'invalid_request' })
      }
      const code = token()
      const scopes = (scope ?? 'basic').split(' ').filter((one) => grantable.has(one))
      codes.set(code, { challenge: codeChallenge, redirectUri, clientId, scopes })
      const back = new URL(redirectUri)
      back.searchParams.set('code', code)
      back.searchParams.set('state', query.get('state') ?? '')
      response.writeHead(302, { location: back.href })
      response.end()
    },
    'POST /token': async (request, response) => {
      const form = new URLSearchParams(await readBody(request))
      tokenRequests.push(Object.fromEntries(form))
      if (form.get('grant_type') === 'client_credentials') {
        if (machineAuthenticated(request, form) === undefined) {
          return json(response, 401, { error: 'invalid_client', error_description: 'client authentication failed' })
        }
        const scopes = (form.get('scope') ?? 'basic').split(' ').filter((one) => grantable.has(one))
        const { refresh_token: _none, ...issued } = issue(scopes)
        return json(response, 200, issued)
      }
      if (form.get('grant_type') === JWT_BEARER_GRANT) {
        const clientId = machineAuthenticated(request, form)
        if (clientId === undefined) return json(response, 401, { error: 'invalid_client' })
        const claims = options.idJagClaims?.(form.get('assertion') ?? '')
        const addressed = [origin, `${origin}/`].includes(claims?.aud ?? '') && claims?.resource === `${origin}/mcp`
        if (claims === undefined || !addressed || claims.client_id !== clientId) {
          return json(response, 400, { error: 'invalid_grant' })
        }
        const scopes = (form.get('scope') ?? 'basic').split(' ').filter((one) => grantable.has(one))
        const { refresh_token: _none, ...issued } = issue(scopes)
        return json(response, 200, issued)
      }
      const clientId = clientAuthenticated(request, form)
      if (clientId === undefined) return json(response, 401, { error: 'invalid_client' })
      if (form.get('grant_type') === 'authorization_code') {
        const grant = codes.get(form.get('code') ?? '')
        codes.delete(form.get('code') ?? '')
        const verifier = form.get('code_verifier') ?? ''
        if (
          grant === undefined ||
          grant.clientId !== clientId ||
          grant.redirectUri !== form.get('redirect_uri') ||
          s256(verifier) !== grant.challenge
        ) {
          return json(response, 400, { error: 'invalid_grant' })
        }
        return json(response, 200, issue(grant.scopes))
      }
      if (form.get('grant_type') === 'refresh_token') {
        const scopes = refreshTokens.get(form.get('refresh_token') ?? '')
        if (scopes === undefined) return json(response, 400, { error: 'invalid_grant' })
        refreshTokens.delete(form.get('refresh_token') ?? '')
        return json(response, 200, issue(scopes))
      }
      json(response, 400, { error: 'unsupported_grant_type' })
    },
    'GET /mcp': async (_request, response) => {
      response.writeHead(405).end()
    },
    'POST /mcp': async (request, response) => {
      const body = JSON.parse(await readBody(request)) as { method?: string; params?: { name?: string } }
      const method = body.method ?? ''
      const needed =
        method === 'initialize' || method.startsWith('notifications/') ? [] : scopesFor(method, body.params?.name)
      const bearer = request.headers.authorization?.match(/^Bearer (.+)$/)?.[1]
      const granted = bearer === undefined ? undefined : accessTokens.get(bearer)
      if (granted === undefined) return challenge(response, 401, needed.length > 0 ? needed : ['basic'])
      if (!needed.every((scope) => granted.includes(scope))) return challenge(response, 403, needed)
      const server = mcpServer()
      const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true })
      await server.connect(transport)
      response.on('close', () => {
        void transport.close()
        void server.close()
      })
      await transport.handleRequest(request, response, body)
    },
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin)
    paths.push(url.pathname)
    if (options.override?.(request, response, origin) === true) return
    const route = routes[`${request.method} ${url.pathname}`]
    if (route === undefined) return json(response, 404, { error: 'not_found' })
    route(request, response, url).catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { error: 'server_error', error_description: String(error) })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    mcpUrl: `${origin}/mcp`,
    registrations,
    authorizations,
    tokenRequests,
    tokenAuthentications,
    paths,
    expireAccessTokens: () => accessTokens.clear(),
    issueAccessToken: (scopes) => {
      const access = token()
      accessTokens.set(access, scopes)
      return access
    },
    stop: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/**
 * The test's browser: fetches the authorization URL and follows its one redirect to the loopback listener, as a
 * person approving in a browser would. `rewrite` changes the redirect first (a forged or crossed redirect).
 */
export function approvingBrowser(opened: URL[], rewrite: (location: URL) => URL = (location) => location) {
  return async (authorizationUrl: URL) => {
    opened.push(authorizationUrl)
    const approval = await fetch(authorizationUrl, { redirect: 'manual' })
    const location = approval.headers.get('location')
    if (location === null) throw new Error(`the authorization endpoint answered ${approval.status}`)
    await fetch(rewrite(new URL(location)))
  }
}
