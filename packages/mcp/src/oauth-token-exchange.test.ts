import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { isMcpAuthorizationError, type McpAuthorizationErrorCode } from './oauth-error.js'
import { authFetch } from './oauth-fetch.js'
import {
  ID_JAG_TOKEN_TYPE,
  type IdJagRequest,
  type IdJagResult,
  MAX_ID_JAG_LENGTH,
  requestIdJag,
} from './oauth-token-exchange.js'

const ID_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl-id-token'
const SECRET = 'idp-secret-71c4'
const ID_JAG = 'eyJ0eXAiOiJvYXV0aC1pZC1qYWcrand0In0.eyJzdWIiOiJhZGEifQ.c2ln'
const MAX_BYTES = 262_144

interface Seen {
  readonly headers: IncomingMessage['headers']
  readonly form: Record<string, string>
}

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

/** A real identity provider on a loopback port whose token endpoint answers with `answer`. */
async function identityProvider(answer: (response: ServerResponse) => void) {
  const seen: Seen[] = []
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    seen.push({
      headers: request.headers,
      form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString())),
    })
    answer(response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  const tokenEndpoint = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth2/token`)
  return { seen, tokenEndpoint }
}

const json = (status: number, body: unknown) => (response: ServerResponse) => {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(typeof body === 'string' ? body : JSON.stringify(body))
}
const issued = (fields: Record<string, unknown> = {}) =>
  json(200, { access_token: ID_JAG, issued_token_type: ID_JAG_TOKEN_TYPE, token_type: 'N_A', ...fields })

/** The connection's bounded OAuth fetch, as the authorizer builds it. */
const boundedFetch = (timeoutMs = 10_000) =>
  authFetch({
    serverUrl: new URL('http://127.0.0.1:1/mcp'),
    timeoutMs,
    maxBytes: MAX_BYTES,
    onInsufficientScope: () => {},
  })

function exchange(tokenEndpoint: URL, extra: Partial<IdJagRequest> = {}, timeoutMs?: number) {
  return requestIdJag(
    {
      tokenEndpoint,
      idToken: ID_TOKEN,
      audience: 'https://auth.example.com',
      resource: 'https://mcp.example.com/mcp',
      clientId: 'idp-client',
      ...extra,
    },
    boundedFetch(timeoutMs),
  )
}

function failureCode(result: IdJagResult): McpAuthorizationErrorCode {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result)}`)
  expect(isMcpAuthorizationError(result.error)).toBe(true)
  expect(result.error.message).not.toContain(ID_TOKEN)
  expect(result.error.message).not.toContain(SECRET)
  return result.error.code
}

describe('requestIdJag (RFC 8693 token exchange for an ID-JAG at a real loopback identity provider)', () => {
  it('posts the form the ID-JAG draft names, with client_id in the form when there is no secret', async () => {
    const idp = await identityProvider(issued())
    expect(await exchange(idp.tokenEndpoint, { scope: 'files:read' })).toEqual({ ok: true, idJag: ID_JAG })
    expect(idp.seen).toHaveLength(1)
    expect(idp.seen[0]?.form).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: 'https://auth.example.com',
      resource: 'https://mcp.example.com/mcp',
      subject_token: ID_TOKEN,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      scope: 'files:read',
      client_id: 'idp-client',
    })
    expect(idp.seen[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(idp.seen[0]?.headers.authorization).toBeUndefined()
  })

  it('authenticates with HTTP Basic when the client has a secret there, and sends no scope when none is asked', async () => {
    const idp = await identityProvider(issued())
    expect((await exchange(idp.tokenEndpoint, { clientId: 'idp client:1', clientSecret: SECRET })).ok).toBe(true)
    const basic = idp.seen[0]?.headers.authorization?.match(/^Basic (.+)$/)?.[1] ?? ''
    expect(Buffer.from(basic, 'base64').toString()).toBe(`idp%20client%3A1:${SECRET}`)
    expect(idp.seen[0]?.form).not.toHaveProperty('client_id')
    expect(idp.seen[0]?.form).not.toHaveProperty('client_secret')
    expect(idp.seen[0]?.form).not.toHaveProperty('scope')
  })

  it('takes token_type in any case (N_A, n_a)', async () => {
    const idp = await identityProvider(issued({ token_type: 'n_a' }))
    expect(await exchange(idp.tokenEndpoint)).toEqual({ ok: true, idJag: ID_JAG })
  })
})

describe('requestIdJag against a hostile identity provider: a clean failure with a code, never the host down', () => {
  const invalidAnswers: Record<string, (response: ServerResponse) => void> = {
    'a body that is not JSON': json(200, '<html>sign in</html>'),
    'a JSON array': json(200, [ID_JAG]),
    'JSON null': json(200, 'null'),
    'no access_token': issued({ access_token: undefined }),
    'an access_token that is a number': issued({ access_token: 42 }),
    'an access_token that is no JWT': issued({ access_token: 'opaque token with spaces' }),
    'an access_token past the length limit': issued({ access_token: `${'a'.repeat(MAX_ID_JAG_LENGTH)}.b.c` }),
    'an access token instead of an ID-JAG': issued({
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    }),
    'no issued_token_type': issued({ issued_token_type: undefined }),
    'an issued_token_type that is an object': issued({ issued_token_type: { type: ID_JAG_TOKEN_TYPE } }),
    'token_type Bearer (a usable access token, not a grant)': issued({ token_type: 'Bearer' }),
    'no token_type': issued({ token_type: undefined }),
  }
  for (const [what, answer] of Object.entries(invalidAnswers)) {
    it(`refuses ${what} as INVALID_TOKEN_EXCHANGE_RESPONSE`, async () => {
      const idp = await identityProvider(answer)
      expect(failureCode(await exchange(idp.tokenEndpoint, { clientSecret: SECRET }))).toBe(
        'INVALID_TOKEN_EXCHANGE_RESPONSE',
      )
    })
  }

  it('names the OAuth error of a refusal, and nothing the identity provider wrote beside it', async () => {
    const idp = await identityProvider(json(400, { error: 'invalid_grant', error_description: 'evil\nInjected: line' }))
    const result = await exchange(idp.tokenEndpoint)
    expect(failureCode(result)).toBe('TOKEN_EXCHANGE_REFUSED')
    expect(!result.ok && result.error.message).toMatch(/HTTP 400 with error "invalid_grant"/)
    expect(!result.ok && result.error.message).not.toContain('Injected')
  })

  it('does not quote an error code that is no RFC 6749 code (control characters, quotes, 100 kB, a number)', async () => {
    for (const error of ['bad\r\nSet-Cookie: x', 'say "hi"', 'x'.repeat(100_000), 7]) {
      const idp = await identityProvider(json(401, { error }))
      const result = await exchange(idp.tokenEndpoint)
      expect(failureCode(result)).toBe('TOKEN_EXCHANGE_REFUSED')
      expect(!result.ok && result.error.message).toMatch(/\(HTTP 401\)$/)
    }
  })

  it('refuses a 2xx body past the byte limit as RESPONSE_TOO_LARGE, declared or streamed', async () => {
    const huge = JSON.stringify({ access_token: ID_JAG, padding: 'x'.repeat(MAX_BYTES) })
    const declared = await identityProvider(json(200, huge))
    expect(failureCode(await exchange(declared.tokenEndpoint))).toBe('RESPONSE_TOO_LARGE')
    const streamed = await identityProvider((response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      for (let chunk = 0; chunk < 64; chunk++) response.write('x'.repeat(16_384))
      response.end()
    })
    expect(failureCode(await exchange(streamed.tokenEndpoint))).toBe('RESPONSE_TOO_LARGE')
  })

  it('gives up on an identity provider that never answers as REQUEST_TIMEOUT', async () => {
    const idp = await identityProvider(() => {})
    expect(failureCode(await exchange(idp.tokenEndpoint, {}, 200))).toBe('REQUEST_TIMEOUT')
  })

  it('reports an identity provider nobody listens for as IDENTITY_PROVIDER_UNREACHABLE', async () => {
    const idp = await identityProvider(issued())
    const closed = new URL(idp.tokenEndpoint)
    for (const step of cleanup.splice(0)) await step()
    expect(failureCode(await exchange(closed))).toBe('IDENTITY_PROVIDER_UNREACHABLE')
  })
})
