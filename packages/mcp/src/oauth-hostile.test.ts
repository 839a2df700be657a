import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterEach, describe, expect, it } from 'vitest'
import { startHealthProbe } from '../../../test/support/host-health-probe.js'
import { codeOf } from './__fixtures__/oauth-failures.js'
import { approvingBrowser, type OAuthFixtureOptions, startOAuthFixture } from './__fixtures__/oauth-servers.js'
import { connectMcpServer } from './connect-mcp-server.js'
import { memoryTokenStore } from './oauth-token-store.js'

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function start(override: OAuthFixtureOptions['override'], opened: URL[] = [], rewrite?: (location: URL) => URL) {
  const server = await startOAuthFixture(override === undefined ? {} : { override })
  cleanup.push(() => server.stop())
  const began = Date.now()
  const outcome = await connectMcpServer(createToolRuntime(), {
    name: 'hostile',
    url: server.mcpUrl,
    oauth: true,
    tokenStore: memoryTokenStore(),
    openBrowser: approvingBrowser(opened, rewrite),
    connectTimeoutMs: 1_000,
  }).then(
    (connection) => {
      cleanup.push(() => connection.dispose())
      return connection
    },
    (error: unknown) => error,
  )
  return { server, outcome, elapsedMs: Date.now() - began }
}

describe('OAuth against hostile servers', () => {
  it('stops reading authorization server metadata past 256 KiB, the host staying responsive', async () => {
    let sent = 0
    const probe = startHealthProbe()
    const { outcome } = await start((request, response) => {
      if (request.url !== '/.well-known/oauth-authorization-server') return false
      response.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(65_536, 0x20)
      const pump = () => {
        while (sent < 64 * 1_048_576 && response.write(chunk)) sent += chunk.length
        if (sent < 64 * 1_048_576) response.once('drain', pump)
        else response.end()
      }
      response.on('close', () => response.removeAllListeners('drain'))
      pump()
      return true
    })
    expect(codeOf(outcome)).toBe('RESPONSE_TOO_LARGE')
    expect((outcome as Error).message).toMatch(/more than 262144 bytes/)
    const health = probe.stop()
    expect(sent).toBeLessThan(16 * 1_048_576)
    expect(health.lagBusyMs).toBeLessThan(200)
    expect(health.rssPeakMb).toBeLessThan(1024)
  })

  it('times out a token endpoint that never answers', async () => {
    const opened: URL[] = []
    const { outcome, elapsedMs } = await start((request) => request.url === '/token', opened)
    expect(opened).toHaveLength(1)
    expect(codeOf(outcome)).toBe('REQUEST_TIMEOUT')
    expect((outcome as Error).message).toMatch(/\/token did not answer within 1000 ms$/)
    expect(elapsedMs).toBeLessThan(10_000)
  })

  it('follows a redirect loop at most five times per request, and never to another host', async () => {
    let elsewhere = 0
    const other = createServer((_request, response) => {
      elsewhere++
      response.end('{}')
    })
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve))
    cleanup.push(() => new Promise((resolve) => other.close(resolve)))
    const otherOrigin = `http://127.0.0.2:${(other.address() as AddressInfo).port}`
    const loops = new Map<string, number>()
    const { outcome, server } = await start((request, response, origin) => {
      const path = new URL(request.url ?? '/', origin).pathname
      if (path === '/register') {
        response.writeHead(307, { location: `${otherOrigin}/register` }).end()
        return true
      }
      if (!path.startsWith('/.well-known/oauth-authorization-server')) return false
      loops.set(path, (loops.get(path) ?? 0) + 1)
      response.writeHead(302, { location: `${path}?again=${loops.get(path)}` }).end()
      return true
    })
    expect(outcome).toBeInstanceOf(Error)
    expect((outcome as Error).message).toMatch(/not followed/)
    for (const count of loops.values()) expect(count).toBeLessThanOrEqual(6)
    expect(elsewhere).toBe(0)
    expect(server.registrations).toHaveLength(0)
  })

  it('refuses a redirect whose state this flow did not send, and closes the listener', async () => {
    const opened: URL[] = []
    let listener: URL | undefined
    const { outcome, server } = await start(undefined, opened, (location) => {
      listener = new URL(location)
      const forged = new URL(location)
      forged.searchParams.set('state', 'forged')
      return forged
    })
    expect(codeOf(outcome)).toBe('STATE_MISMATCH')
    expect(server.tokenRequests).toHaveLength(0)
    await expect(fetch(listener as URL)).rejects.toThrow()
  })

  it('does not hand a browser an authorization URL that is plain http off loopback', async () => {
    const opened: URL[] = []
    const { outcome } = await start((request, response, origin) => {
      if (request.url !== '/.well-known/oauth-authorization-server') return false
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          issuer: origin,
          authorization_endpoint: 'http://phish.example/authorize',
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        }),
      )
      return true
    }, opened)
    expect(codeOf(outcome)).toBe('UNSAFE_AUTHORIZATION_URL')
    expect(opened).toHaveLength(0)
  })
})
