import { describe, expectTypeOf, it } from 'vitest'
import type { McpOAuthClient, McpOAuthCrossAppAccessClient } from './index.js'

const identityProvider = { tokenEndpoint: 'https://idp.example.com/oauth2/token', clientId: 'idp-client' }
const complete = {
  grant: 'cross_app_access',
  clientId: 'svc',
  clientSecret: 's',
  identityProvider,
  idToken: 'id.token.value',
} as const

describe('the cross-app access client', () => {
  it('is one of the oauth variants, with a secret or a key, and an ID token or a function giving one', () => {
    expectTypeOf<McpOAuthCrossAppAccessClient>().toExtend<McpOAuthClient>()
    const withSecret: McpOAuthClient = {
      grant: 'cross_app_access',
      clientId: 'svc',
      clientSecret: 's',
      identityProvider,
      idToken: 'id.token.value',
    }
    const withKey: McpOAuthClient = {
      grant: 'cross_app_access',
      clientId: 'svc',
      privateKey: '-----BEGIN PRIVATE KEY-----',
      algorithm: 'ES256',
      identityProvider: { ...identityProvider, tokenEndpoint: new URL(identityProvider.tokenEndpoint) },
      idToken: async () => 'id.token.value',
    }
    void withSecret
    void withKey
  })

  it('refuses a client without its identity provider, its ID token, or with HMAC', () => {
    const { identityProvider: _dropped, ...withoutProvider } = complete
    const { idToken: _none, ...withoutToken } = complete
    // @ts-expect-error: the identity provider is required
    const noProvider: McpOAuthCrossAppAccessClient = withoutProvider
    // @ts-expect-error: the ID token is required
    const noToken: McpOAuthCrossAppAccessClient = withoutToken
    // @ts-expect-error: no symmetric algorithm
    const hmac: McpOAuthCrossAppAccessClient = { ...withoutToken, idToken: 't', privateKey: 'k', algorithm: 'HS256' }
    void noProvider
    void noToken
    void hmac
  })
})
