import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterEach, describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../../test/support/settled-result.js'
import { approvingBrowser, type OAuthFixture, startOAuthFixture } from './__fixtures__/oauth-servers.js'
import { connectMcpServer } from './connect-mcp-server.js'
import type { McpConnectOptions } from './mcp-connection-types.js'
import { isMcpAuthorizationError } from './oauth-error.js'
import { fileTokenStore, memoryTokenStore, tokenFileName } from './oauth-token-store.js'

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function fixture(options?: Parameters<typeof startOAuthFixture>[0]): Promise<OAuthFixture> {
  const started = await startOAuthFixture(options)
  cleanup.push(() => started.stop())
  return started
}

async function connect(
  server: OAuthFixture,
  options: Partial<McpConnectOptions> & { runtime?: ReturnType<typeof createToolRuntime> },
) {
  const { runtime = createToolRuntime(), ...rest } = options
  const connection = await connectMcpServer(runtime, {
    name: 'remote',
    url: server.mcpUrl,
    oauth: true,
    tokenStore: memoryTokenStore(),
    ...rest,
  } as McpConnectOptions)
  cleanup.push(() => connection.dispose())
  return { runtime, connection }
}

/** A loopback port free a moment ago. */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = []
  for (let current = error; current !== undefined && chain.length < 10; current = (current as Error).cause) {
    chain.push(current)
  }
  return chain
}

describe('connectMcpServer with OAuth (a real authorization server and protected MCP server on loopback)', () => {
  it('discovers, registers, authorizes with PKCE S256, stores the tokens 0600 in a 0700 directory, and reuses them', async () => {
    const server = await fixture()
    const home = await mkdtemp(join(tmpdir(), 'qilin-oauth-'))
    cleanup.push(() => rm(home, { recursive: true, force: true }))
    const directory = join(home, 'config', 'qilin-tools', 'oauth')
    const opened: URL[] = []
    const { runtime, connection } = await connect(server, {
      tokenStore: fileTokenStore({ directory }),
      openBrowser: approvingBrowser(opened),
    })
    expect(connection.tools).toEqual(['remote__echo', 'remote__publish'])
    expect(expectSuccess(await runtime.execute({ id: '1', name: 'remote__echo', arguments: {} })).value).toContain(
      'echoed',
    )
    expect(server.paths).toContain('/.well-known/oauth-protected-resource/mcp')
    expect(server.paths).toContain('/.well-known/oauth-authorization-server')
    expect(server.registrations).toHaveLength(1)
    expect(server.registrations[0]).toMatchObject({
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
    })
    expect(opened).toHaveLength(1)
    expect(server.authorizations).toEqual([
      expect.objectContaining({
        clientId: 'client-1',
        scope: 'basic',
        codeChallengeMethod: 'S256',
        resource: server.mcpUrl,
        redirectUri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/),
      }),
    ])
    expect(server.tokenRequests.map((request) => request.grant_type)).toEqual(['authorization_code'])
    expect(server.tokenRequests[0]?.code_verifier).toMatch(/^[\w.~-]{43,128}$/)

    expect((await stat(directory)).mode & 0o777).toBe(0o700)
    const files = await readdir(directory)
    expect(files).toEqual([tokenFileName(server.mcpUrl)])
    expect((await stat(join(directory, files[0]!))).mode & 0o777).toBe(0o600)

    // A second run (a new process, as far as the store knows) needs no browser and no registration.
    const again = await connect(server, {
      tokenStore: fileTokenStore({ directory }),
      openBrowser: () => {
        throw new Error('the browser must not open when stored tokens work')
      },
    })
    expect(expectSuccess(await again.runtime.execute({ id: '2', name: 'remote__echo', arguments: {} })).ok).toBe(true)
    expect(server.registrations).toHaveLength(1)
    expect(server.authorizations).toHaveLength(1)
  })

  it('presents the configured client name and fixed redirect port; the scope the 401 names wins over configured scopes', async () => {
    const server = await fixture()
    const port = await freePort()
    const { runtime } = await connect(server, {
      openBrowser: approvingBrowser([]),
      oauthPresentation: { clientName: 'Release bot', scopes: ['basic', 'write'], redirectPort: port },
    })
    expect(expectSuccess(await runtime.execute({ id: '1', name: 'remote__echo', arguments: {} })).ok).toBe(true)
    const redirectUri = `http://127.0.0.1:${port}/callback`
    expect(server.registrations[0]).toMatchObject({
      client_name: 'Release bot',
      // The SDK's order: the 401's scope, then the resource metadata's scopes_supported, then the configured ones.
      scope: 'basic',
      redirect_uris: [redirectUri],
    })
    expect(server.authorizations).toEqual([expect.objectContaining({ redirectUri })])
  })

  it.each([
    [{ redirectPort: 70_000 }, /redirectPort must be an integer from 1 to 65535 \(got 70000\)/],
    [{ redirectPort: 1.5 }, /redirectPort must be an integer/],
    [{ scopes: ['read write'] }, /"read write" is not a scope/],
    [{ scopes: ['quote"'] }, /is not a scope/],
    [{ clientName: '  ' }, /clientName must not be empty/],
  ])('refuses a presentation no authorization server could take: %j', async (oauthPresentation, message) => {
    const server = await fixture()
    await expect(connect(server, { openBrowser: approvingBrowser([]), oauthPresentation })).rejects.toThrow(message)
    expect(server.registrations).toHaveLength(0)
  })

  it('refreshes an expired access token on the 401 that reports it, without a browser', async () => {
    const server = await fixture()
    const opened: URL[] = []
    const { runtime } = await connect(server, { openBrowser: approvingBrowser(opened) })
    server.expireAccessTokens()
    const after = await runtime.execute({ id: '1', name: 'remote__echo', arguments: {} })
    expect(expectSuccess(after).value).toContain('echoed')
    expect(server.tokenRequests.map((request) => request.grant_type)).toEqual(['authorization_code', 'refresh_token'])
    expect(opened).toHaveLength(1)
  })

  it('steps up on 403 insufficient_scope mid-session: a new authorization with the wider scope, not a refresh', async () => {
    const server = await fixture({
      scopesFor: (method, tool) => (method === 'tools/call' && tool === 'publish' ? ['basic', 'write'] : ['basic']),
    })
    const opened: URL[] = []
    const { runtime } = await connect(server, { openBrowser: approvingBrowser(opened) })
    const published = await runtime.execute({ id: '1', name: 'remote__publish', arguments: {} })
    expect(expectSuccess(published).value).toContain('published')
    expect(server.authorizations.map((authorization) => authorization.scope)).toEqual(['basic', 'basic write'])
    expect(server.tokenRequests.map((request) => request.grant_type)).toEqual([
      'authorization_code',
      'authorization_code',
    ])
    expect(opened).toHaveLength(2)
  })

  it('gives up a request the server keeps refusing after a bounded number of authorizations', async () => {
    const server = await fixture({
      scopesFor: (method) => (method === 'tools/call' ? ['admin'] : ['basic']),
      grantable: ['basic'],
    })
    const opened: URL[] = []
    const { runtime, connection } = await connect(server, { openBrowser: approvingBrowser(opened) })
    const refused = await runtime.execute({ id: '1', name: 'remote__echo', arguments: {} })
    expect(expectFailure(refused).error.code).toBe('TOOL_ERROR')
    expect(expectFailure(refused).error.message).toMatch(/^MCP server "remote" /)
    expect(server.authorizations.length).toBeLessThanOrEqual(3)
    expect(opened.length).toBe(server.authorizations.length)
    // The session itself is fine: the refusal was about one tool's scope.
    expect(connection.status.state).toBe('connected')
  })

  it('fails a non-interactive start with one line naming the server and the reason', async () => {
    const server = await fixture()
    const failure = await connectMcpServer(createToolRuntime(), {
      name: 'remote',
      url: server.mcpUrl,
      oauth: true,
      tokenStore: memoryTokenStore(),
    }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(Error)
    const message = (failure as Error).message
    expect(message).toBe(
      'MCP server "remote" failed to start: MCP server "remote" needs OAuth authorization in a browser, and this host cannot open one (no openBrowser)',
    )
    expect(causeChain(failure).find(isMcpAuthorizationError)?.code).toBe('INTERACTION_REQUIRED')
    expect(server.authorizations).toHaveLength(0)
  })

  it('uses a pre-registered client and its secret, and registers nothing', async () => {
    const server = await fixture({ preRegistered: { clientId: 'known', clientSecret: 'known-secret' } })
    const opened: URL[] = []
    const { runtime } = await connect(server, {
      oauth: { clientId: 'known', clientSecret: 'known-secret' },
      openBrowser: approvingBrowser(opened),
    })
    expect(expectSuccess(await runtime.execute({ id: '1', name: 'remote__echo', arguments: {} })).ok).toBe(true)
    expect(server.registrations).toHaveLength(0)
    expect(server.authorizations[0]?.clientId).toBe('known')
  })

  it('keeps static bearer headers working without oauth', async () => {
    const server = await fixture()
    const runtime = createToolRuntime()
    const connection = await connectMcpServer(runtime, {
      name: 'static',
      url: server.mcpUrl,
      headers: { Authorization: `Bearer ${server.issueAccessToken(['basic'])}` },
    })
    cleanup.push(() => connection.dispose())
    expect(expectSuccess(await runtime.execute({ id: '1', name: 'static__echo', arguments: {} })).ok).toBe(true)
    expect(server.authorizations).toHaveLength(0)
  })

  it('without oauth, a 401 fails the start as before', async () => {
    const server = await fixture()
    await expect(connectMcpServer(createToolRuntime(), { name: 'plain', url: server.mcpUrl })).rejects.toThrow(
      /^MCP server "plain" failed to start: /,
    )
  })
})
