/**
 * A real enterprise identity provider on a loopback port, for the cross-app access tests: its token endpoint takes
 * RFC 8693 token exchange of an ID token it issued for an ID-JAG (`typ: oauth-id-jag+jwt`) carrying the audience,
 * resource and client the request named. It signs nothing: `issued` is how the authorization server fixture tells
 * an ID-JAG of this provider from a forged one.
 */
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface IdentityProviderFixture {
  readonly tokenEndpoint: string
  /** The ID token of the signed-in user, to exchange. */
  readonly idToken: string
  /** The form of every token request, in order. */
  readonly exchanges: Record<string, string>[]
  /** The claims of each ID-JAG issued, by the ID-JAG. */
  readonly issued: Map<string, Record<string, string>>
  stop(): Promise<void>
}

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** `clientIdThere` is the client's id at the authorization server, which the ID-JAG names (the IdP knows both). */
export async function startIdentityProvider(clientIdThere: string): Promise<IdentityProviderFixture> {
  const idToken = `${part({ alg: 'ES256' })}.${part({ sub: 'ada@example.com' })}.${randomBytes(16).toString('base64url')}`
  const exchanges: Record<string, string>[] = []
  const issued = new Map<string, Record<string, string>>()
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
    exchanges.push(form)
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    if (form.grant_type !== 'urn:ietf:params:oauth:grant-type:token-exchange') {
      return answer(400, { error: 'unsupported_grant_type' })
    }
    if (form.subject_token !== idToken || form.subject_token_type !== 'urn:ietf:params:oauth:token-type:id_token') {
      return answer(400, { error: 'invalid_grant' })
    }
    const claims = {
      sub: 'ada@example.com',
      aud: form.audience ?? '',
      resource: form.resource ?? '',
      client_id: clientIdThere,
      scope: form.scope ?? '',
    }
    const idJag = `${part({ alg: 'ES256', typ: 'oauth-id-jag+jwt' })}.${part(claims)}.${randomBytes(16).toString('base64url')}`
    issued.set(idJag, claims)
    answer(200, {
      access_token: idJag,
      issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      token_type: 'N_A',
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    tokenEndpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    idToken,
    exchanges,
    issued,
    stop: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
