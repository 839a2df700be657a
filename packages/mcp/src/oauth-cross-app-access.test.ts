import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js'
import { afterEach, describe, expect, it } from 'vitest'
import { type IdentityProviderFixture, startIdentityProvider } from './__fixtures__/identity-provider.js'
import { crossAppAccessSettings, crossAppAccessTokenRequest } from './oauth-cross-app-access.js'
import { authFetch } from './oauth-fetch.js'

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function identityProvider(): Promise<IdentityProviderFixture> {
  const idp = await startIdentityProvider('svc-xaa')
  cleanup.push(() => idp.stop())
  return idp
}

const serverUrl = new URL('https://mcp.example.com/tenant/mcp?team=7')
const fetchForAuth = authFetch({ serverUrl, timeoutMs: 10_000, maxBytes: 262_144, onInsufficientScope: () => {} })

function tokenRequest(idp: IdentityProviderFixture, discovery: OAuthDiscoveryState) {
  const settings = crossAppAccessSettings({
    grant: 'cross_app_access',
    clientId: 'svc-xaa',
    clientSecret: 'secret',
    identityProvider: { tokenEndpoint: idp.tokenEndpoint, clientId: 'idp-client' },
    idToken: idp.idToken,
  })
  return crossAppAccessTokenRequest(settings, { serverUrl, discoveryState: () => discovery, fetch: fetchForAuth })
}

describe('crossAppAccessTokenRequest: what the ID-JAG is asked for, from what discovery found', () => {
  it("addresses the ID-JAG to the authorization server's issuer and the resource metadata's resource", async () => {
    const idp = await identityProvider()
    const params = await tokenRequest(idp, {
      authorizationServerUrl: 'https://auth.example.com/tenant',
      authorizationServerMetadata: {
        issuer: 'https://auth.example.com/tenant/issuer',
        authorization_endpoint: 'https://auth.example.com/authorize',
        token_endpoint: 'https://auth.example.com/token',
        response_types_supported: ['code'],
      },
      resourceMetadata: { resource: 'https://mcp.example.com/tenant/mcp' },
    })('files:read')
    expect(idp.exchanges[0]).toMatchObject({
      audience: 'https://auth.example.com/tenant/issuer',
      resource: 'https://mcp.example.com/tenant/mcp',
      scope: 'files:read',
    })
    expect(Object.fromEntries(params)).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: [...idp.issued.keys()][0],
      scope: 'files:read',
    })
  })

  it('falls back to the authorization server URL and to the server URL itself when metadata is missing', async () => {
    const idp = await identityProvider()
    const params = await tokenRequest(idp, { authorizationServerUrl: 'https://auth.example.com/' })(undefined)
    expect(idp.exchanges[0]).toMatchObject({
      audience: 'https://auth.example.com/',
      resource: 'https://mcp.example.com/tenant/mcp?team=7',
    })
    expect(idp.exchanges[0]).not.toHaveProperty('scope')
    expect(params.has('scope')).toBe(false)
  })
})
