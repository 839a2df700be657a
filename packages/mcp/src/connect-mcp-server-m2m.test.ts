import { generateKeyPairSync } from 'node:crypto'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterEach, describe, expect, it } from 'vitest'
import { expectSuccess } from '../../../test/support/settled-result.js'
import { failureOf } from './__fixtures__/oauth-failures.js'
import { type OAuthFixture, startOAuthFixture } from './__fixtures__/oauth-servers.js'
import { connectMcpServer } from './connect-mcp-server.js'
import type { McpConnectOptions } from './mcp-connection-types.js'
import type { McpOAuthMachineClient } from './oauth-machine-client.js'
import { memoryTokenStore } from './oauth-token-store.js'

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

const SECRET = 'machine-secret-9f2c'
const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
const ecPem = ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
const rsaPkcs1Pem = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()

async function fixture(): Promise<OAuthFixture> {
  const started = await startOAuthFixture({
    machineClients: [
      { clientId: 'svc-basic', clientSecret: SECRET },
      { clientId: 'svc-ec', publicKey: ec.publicKey },
      { clientId: 'svc-rsa', publicKey: rsa.publicKey },
    ],
  })
  cleanup.push(() => started.stop())
  return started
}

async function connect(server: OAuthFixture, oauth: McpOAuthMachineClient, extra: Partial<McpConnectOptions> = {}) {
  const runtime = createToolRuntime()
  const connection = await connectMcpServer(runtime, {
    name: 'remote',
    url: server.mcpUrl,
    oauth,
    tokenStore: memoryTokenStore(),
    ...extra,
  } as McpConnectOptions)
  cleanup.push(() => connection.dispose())
  return { runtime, connection }
}

describe('connectMcpServer with a machine client (client_credentials against a real loopback authorization server)', () => {
  it('gets a token with the client secret over HTTP Basic: no browser, no registration, no redirect', async () => {
    const server = await fixture()
    const store = memoryTokenStore()
    const { runtime, connection } = await connect(
      server,
      { grant: 'client_credentials', clientId: 'svc-basic', clientSecret: SECRET },
      { tokenStore: store },
    )
    expect(connection.tools).toEqual(['remote__echo', 'remote__publish'])
    expect(expectSuccess(await runtime.execute({ id: '1', name: 'remote__echo', arguments: {} })).value).toContain(
      'echoed',
    )
    expect(server.tokenAuthentications).toEqual(['basic'])
    expect(server.tokenRequests[0]).toMatchObject({ grant_type: 'client_credentials' })
    expect(server.tokenRequests[0]).not.toHaveProperty('client_secret')
    expect(server.registrations).toHaveLength(0)
    expect(server.authorizations).toHaveLength(0)
    expect((await store.load(server.mcpUrl))?.tokens?.access_token).toMatch(/^[0-9a-f]{32}$/)
  })

  it('reuses a stored token on the next connection instead of asking the token endpoint again', async () => {
    const server = await fixture()
    const store = memoryTokenStore()
    const oauth = { grant: 'client_credentials', clientId: 'svc-basic', clientSecret: SECRET } as const
    await connect(server, oauth, { tokenStore: store })
    await connect(server, oauth, { tokenStore: store })
    expect(server.tokenRequests).toHaveLength(1)
  })

  it('asks for a new token when the stored one has expired', async () => {
    const server = await fixture()
    const { runtime } = await connect(server, {
      grant: 'client_credentials',
      clientId: 'svc-basic',
      clientSecret: SECRET,
    })
    server.expireAccessTokens()
    expectSuccess(await runtime.execute({ id: '1', name: 'remote__echo', arguments: {} }))
    expect(server.tokenAuthentications).toEqual(['basic', 'basic'])
  })

  it('authenticates with an ES256 private_key_jwt assertion the server verifies against the public key', async () => {
    const server = await fixture()
    const { runtime } = await connect(server, {
      grant: 'client_credentials',
      clientId: 'svc-ec',
      privateKey: ecPem,
      algorithm: 'ES256',
    })
    expectSuccess(await runtime.execute({ id: '1', name: 'remote__echo', arguments: {} }))
    expect(server.tokenAuthentications).toEqual(['private_key_jwt'])
    expect(server.tokenRequests[0]?.client_assertion?.split('.')).toHaveLength(3)
    expect(server.registrations).toHaveLength(0)
  })

  it('takes an RSA key in PKCS#1 PEM for RS256', async () => {
    const server = await fixture()
    await connect(server, {
      grant: 'client_credentials',
      clientId: 'svc-rsa',
      privateKey: rsaPkcs1Pem,
      algorithm: 'RS256',
    })
    expect(server.tokenAuthentications).toEqual(['private_key_jwt'])
  })
})

describe('connectMcpServer with a machine client: hostile and mistaken input', () => {
  it('fails clearly on a wrong secret, and the secret appears nowhere in the error', async () => {
    const server = await fixture()
    const wrong = 'wrong-secret-77aa'
    const failure = await failureOf(
      connect(server, { grant: 'client_credentials', clientId: 'svc-basic', clientSecret: wrong }),
    )
    expect(failure.message).toBe('MCP server "remote" failed to start: client authentication failed')
    const text = JSON.stringify(failure, Object.getOwnPropertyNames(failure)) + String(failure.stack)
    expect(text).not.toContain(wrong)
    // The SDK drops the refused credentials and tries once more; then the refusal stands.
    expect(server.tokenAuthentications).toEqual(['basic', 'basic'])
  })

  it('fails when the assertion is signed with a key the server does not know', async () => {
    const server = await fixture()
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey
    const failure = await failureOf(
      connect(server, {
        grant: 'client_credentials',
        clientId: 'svc-ec',
        privateKey: other.export({ type: 'pkcs8', format: 'pem' }).toString(),
        algorithm: 'ES256',
      }),
    )
    expect(failure.message).toMatch(/failed to start/)
    expect(server.tokenAuthentications).toEqual(['private_key_jwt', 'private_key_jwt'])
  })

  it('refuses a malformed key at connect time, before any request, without echoing the key', async () => {
    const server = await fixture()
    const garbage = '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5IGF0IGFsbA==\n-----END PRIVATE KEY-----\n'
    const failure = await failureOf(
      connect(server, { grant: 'client_credentials', clientId: 'svc-ec', privateKey: garbage, algorithm: 'ES256' }),
    )
    expect(failure).toBeInstanceOf(TypeError)
    expect(failure.message).toBe('oauth.privateKey is not a readable PEM private key')
    expect(failure.message).not.toContain('bm90IGEga2V5')
    expect(server.paths).toEqual([])
  })

  it.each([
    [
      'a key of the wrong type for the algorithm',
      { privateKey: ecPem, algorithm: 'RS256' },
      /is a ec key, which cannot sign RS256/,
    ],
    [
      'a key on the wrong curve',
      { privateKey: ecPem, algorithm: 'ES384' },
      /is on curve prime256v1, and ES384 needs secp384r1/,
    ],
    [
      'an algorithm outside the list (none, HS256)',
      { privateKey: ecPem, algorithm: 'none' },
      /oauth.algorithm must be one of RS256/,
    ],
    ['a symmetric algorithm', { privateKey: ecPem, algorithm: 'HS256' }, /oauth.algorithm must be one of/],
    ['a key that is no string', { privateKey: { kty: 'EC' }, algorithm: 'ES256' }, /must be a PEM private key string/],
    ['a key past 64 KiB', { privateKey: 'A'.repeat(70_000), algorithm: 'ES256' }, /at most 64 KiB/],
    [
      'both a secret and a key',
      { privateKey: ecPem, algorithm: 'ES256', clientSecret: SECRET },
      /either clientSecret or privateKey, not both/,
    ],
    ['neither a secret nor a key', {}, /either clientSecret or privateKey/],
    ['an empty secret', { clientSecret: '' }, /oauth.clientSecret must be a non-empty string/],
    ['an empty client id', { clientId: ' ', clientSecret: SECRET }, /oauth.clientId must be a non-empty string/],
    ['another grant', { grant: 'password', clientSecret: SECRET }, /oauth.grant must be 'client_credentials'/],
  ])('refuses %s with a TypeError naming the field, not the secret', async (_what, fields, message) => {
    const server = await fixture()
    const oauth = { grant: 'client_credentials', clientId: 'svc-ec', ...fields } as unknown as McpOAuthMachineClient
    const failure = await failureOf(connect(server, oauth))
    expect(failure).toBeInstanceOf(TypeError)
    expect(failure.message).toMatch(message)
    expect(failure.message).not.toContain('PRIVATE KEY')
    expect(failure.message).not.toContain(SECRET)
    expect(server.paths).toEqual([])
  })
})
