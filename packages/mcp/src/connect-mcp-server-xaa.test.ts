import { generateKeyPairSync } from 'node:crypto'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterEach, describe, expect, it } from 'vitest'
import { expectSuccess } from '../../../test/support/settled-result.js'
import { type IdentityProviderFixture, startIdentityProvider } from './__fixtures__/identity-provider.js'
import { codeOf, failureOf } from './__fixtures__/oauth-failures.js'
import { type OAuthFixture, startOAuthFixture } from './__fixtures__/oauth-servers.js'
import { connectMcpServer } from './connect-mcp-server.js'
import type { McpConnectOptions } from './mcp-connection-types.js'
import type { McpOAuthCrossAppAccessClient } from './oauth-cross-app-access.js'
import { memoryTokenStore } from './oauth-token-store.js'

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

const SECRET = 'xaa-secret-4b1e'
const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
const ecPem = ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()

/** The identity provider, and the MCP authorization server that trusts the ID-JAGs it issues. */
async function servers(clientId = 'svc-xaa'): Promise<{ idp: IdentityProviderFixture; server: OAuthFixture }> {
  const idp = await startIdentityProvider(clientId)
  cleanup.push(() => idp.stop())
  const server = await startOAuthFixture({
    machineClients: [
      { clientId: 'svc-xaa', clientSecret: SECRET },
      { clientId: 'svc-xaa-ec', publicKey: ec.publicKey },
    ],
    idJagClaims: (assertion) => idp.issued.get(assertion),
  })
  cleanup.push(() => server.stop())
  return { idp, server }
}

function client(idp: IdentityProviderFixture, fields: Partial<Record<string, unknown>> = {}) {
  return {
    grant: 'cross_app_access',
    clientId: 'svc-xaa',
    clientSecret: SECRET,
    identityProvider: { tokenEndpoint: idp.tokenEndpoint, clientId: 'idp-client' },
    idToken: idp.idToken,
    ...fields,
  } as McpOAuthCrossAppAccessClient
}

async function connect(server: OAuthFixture, oauth: McpOAuthCrossAppAccessClient) {
  const runtime = createToolRuntime()
  const connection = await connectMcpServer(runtime, {
    name: 'remote',
    url: server.mcpUrl,
    oauth,
    tokenStore: memoryTokenStore(),
  } as McpConnectOptions)
  cleanup.push(() => connection.dispose())
  return { runtime, connection }
}

describe('connectMcpServer with cross-app access (a real loopback identity provider and authorization server)', () => {
  it('exchanges the ID token for an ID-JAG addressed to the discovered server, then presents it as a jwt-bearer grant', async () => {
    const { idp, server } = await servers()
    const { runtime, connection } = await connect(server, client(idp))
    expect(connection.tools).toEqual(['remote__echo', 'remote__publish'])
    expectSuccess(await runtime.execute({ id: '1', name: 'remote__echo', arguments: {} }))
    expect(idp.exchanges).toHaveLength(1)
    expect(idp.exchanges[0]).toMatchObject({
      subject_token: idp.idToken,
      audience: server.origin,
      resource: server.mcpUrl,
      client_id: 'idp-client',
    })
    const [idJag] = [...idp.issued.keys()]
    expect(server.tokenRequests).toEqual([
      expect.objectContaining({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: idJag }),
    ])
    expect(server.tokenAuthentications).toEqual(['basic'])
    expect(server.registrations).toHaveLength(0)
    expect(server.authorizations).toHaveLength(0)
  })

  it('asks idToken() for a current token each time a new access token is needed', async () => {
    const { idp, server } = await servers()
    let asked = 0
    const { runtime } = await connect(
      server,
      client(idp, {
        idToken: async () => {
          asked += 1
          return idp.idToken
        },
      }),
    )
    server.expireAccessTokens()
    expectSuccess(await runtime.execute({ id: '1', name: 'remote__echo', arguments: {} }))
    expect(asked).toBe(2)
    expect(idp.exchanges).toHaveLength(2)
  })

  it('authenticates to the authorization server with a private_key_jwt assertion instead of a secret', async () => {
    const { idp, server } = await servers('svc-xaa-ec')
    const { clientSecret: _none, ...keyless } = client(idp, { clientId: 'svc-xaa-ec' }) as Record<string, unknown>
    await connect(server, { ...keyless, privateKey: ecPem, algorithm: 'ES256' } as McpOAuthCrossAppAccessClient)
    expect(server.tokenAuthentications).toEqual(['private_key_jwt'])
  })
})

describe('connectMcpServer with cross-app access: refusals and mistaken input', () => {
  it('fails with TOKEN_EXCHANGE_REFUSED when the identity provider refuses the ID token, and never asks the authorization server', async () => {
    const { idp, server } = await servers()
    const failure = await failureOf(connect(server, client(idp, { idToken: 'a.b.not-issued-here' })))
    expect(codeOf(failure)).toBe('TOKEN_EXCHANGE_REFUSED')
    expect(failure.message).toMatch(/refused the token exchange \(HTTP 400 with error "invalid_grant"\)/)
    expect(server.tokenRequests).toEqual([])
  })

  it('fails with ID_TOKEN_UNAVAILABLE when idToken() throws or gives no string of at most 64 KiB', async () => {
    const { idp, server } = await servers()
    const throwing = client(idp, {
      idToken: () => {
        throw new Error('session expired')
      },
    })
    expect(codeOf(await failureOf(connect(server, throwing)))).toBe('ID_TOKEN_UNAVAILABLE')
    const numeric = client(idp, { idToken: async () => 42 })
    expect(codeOf(await failureOf(connect(server, numeric)))).toBe('ID_TOKEN_UNAVAILABLE')
    const huge = client(idp, { idToken: () => 'x'.repeat(65_537) })
    expect(codeOf(await failureOf(connect(server, huge)))).toBe('ID_TOKEN_UNAVAILABLE')
    expect(idp.exchanges).toEqual([])
  })

  it.each([
    ['no identity provider', { identityProvider: undefined }, /oauth.identityProvider must be an object/],
    [
      'a token endpoint that is no URL',
      { identityProvider: { tokenEndpoint: 'idp/token', clientId: 'c' } },
      /absolute URL/,
    ],
    [
      'a plain-http token endpoint off loopback (the ID token would travel in clear)',
      { identityProvider: { tokenEndpoint: 'http://idp.example.com/token', clientId: 'c' } },
      /must be https \(or http on a loopback host\)/,
    ],
    [
      'an empty identity provider client id',
      { identityProvider: { tokenEndpoint: 'https://idp.example.com/token', clientId: '' } },
      /identityProvider.clientId must be a non-empty string/,
    ],
    [
      'an empty identity provider secret',
      { identityProvider: { tokenEndpoint: 'https://idp.example.com/token', clientId: 'c', clientSecret: '' } },
      /identityProvider.clientSecret must be a non-empty string/,
    ],
    ['an empty ID token', { idToken: '' }, /oauth.idToken must be a non-empty string or a function/],
    ['a client secret that is undefined', { clientSecret: undefined }, /oauth.clientSecret must be a non-empty string/],
  ])('refuses %s with a TypeError at connect time, before any request', async (_what, fields, message) => {
    const { idp, server } = await servers()
    const failure = await failureOf(connect(server, client(idp, fields)))
    expect(failure).toBeInstanceOf(TypeError)
    expect(failure.message).toMatch(message)
    expect(failure.message).not.toContain(SECRET)
    expect(server.paths).toEqual([])
    expect(idp.exchanges).toEqual([])
  })
})
