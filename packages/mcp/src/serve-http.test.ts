import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INITIALIZE, mcpHeaders, rawRequest, rpcError } from './__fixtures__/raw-http.js'
import { type McpServing, serveMcp } from './serve-mcp.js'

let runs = 0
let serving: McpServing
let url: string
let bearer: string

function countingRuntime() {
  const runtime = createToolRuntime()
  runtime.register(
    defineTool({
      name: 'touch',
      description: 'Counts its runs.',
      parameters: {},
      execute: () => ({ runs: ++runs }),
    }),
  )
  return runtime
}

beforeAll(async () => {
  serving = await serveMcp(countingRuntime(), {
    transport: { http: { port: 0, allowedHosts: ['mcp.example.test'], allowedOrigins: ['https://app.example.test'] } },
    mode: 'native',
  })
  url = serving.url!
  bearer = `Bearer ${serving.token}`
})
afterAll(() => serving.close())

/** A session opened by hand, and a `tools/call` of `touch` in it. */
async function openSession(): Promise<string> {
  const reply = await rawRequest(url, { headers: mcpHeaders(url, { authorization: bearer }), body: INITIALIZE })
  expect(reply.status).toBe(200)
  return reply.headers['mcp-session-id'] as string
}
const touchCall = JSON.stringify({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'touch', arguments: {} },
})

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'serve-http-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }))
  return client
}

describe('serveMcp over HTTP: DNS-rebinding protection', () => {
  it.each([
    ['a rebound Host', { host: 'evil.example:80' }, /^Forbidden: Host header "evil.example:80" is not allowed/],
    ['a loopback name on another port', { host: 'localhost:1' }, /^Forbidden: Host header "localhost:1"/],
    ['a foreign Origin', { origin: 'http://evil.example' }, /^Forbidden: Origin "http:\/\/evil.example" is not/],
    ['Origin: null', { origin: 'null' }, /^Forbidden: Origin "null"/],
  ])('answers %s with 403 and touches nothing', async (_case, bad, message) => {
    const session = await openSession()
    const before = runs
    for (const body of [INITIALIZE, touchCall]) {
      const headers = mcpHeaders(url, { authorization: bearer, 'mcp-session-id': session, ...bad })
      const reply = await rawRequest(url, { headers, body })
      expect(reply.status).toBe(403)
      expect(rpcError(reply)).toEqual({ code: -32000, message: expect.stringMatching(message) })
      expect(reply.headers['mcp-session-id']).toBeUndefined()
    }
    expect(runs).toBe(before)
    // The same call with good headers runs: the refusal was the headers, nothing else.
    const good = await rawRequest(url, {
      headers: mcpHeaders(url, {
        authorization: bearer,
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-06-18',
      }),
      body: touchCall,
    })
    expect(good.status).toBe(200)
    expect(runs).toBe(before + 1)
  })

  it('answers a bad Host with 403 before the path and the token are looked at', async () => {
    const reply = await rawRequest(`${url}/elsewhere`, { headers: { host: 'evil.example' }, method: 'GET' })
    expect(reply.status).toBe(403)
  })

  // fetch always sends the URL's own Host, so the real client varies the URL; the allowed names go through node:http.
  it.each([
    ['localhost and its Origin', 'localhost', (port: string) => ({ origin: `http://localhost:${port}` })],
    ['127.0.0.1 without Origin', '127.0.0.1', () => ({})],
  ])('lets a real MCP client in by %s', async (_case, name, headersFor) => {
    const address = new URL(url)
    address.hostname = name
    const client = new Client({ name: 'serve-http-test', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(address, {
        requestInit: { headers: { authorization: bearer, ...headersFor(address.port) } },
      }),
    )
    try {
      const result = await client.callTool({ name: 'touch', arguments: {} })
      expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^\{"runs":\d+\}$/) }])
    } finally {
      await client.close()
    }
  })

  it('lets in an allowed Host and Origin', async () => {
    const headers = mcpHeaders(url, {
      authorization: bearer,
      host: 'mcp.example.test',
      origin: 'https://app.example.test',
    })
    expect((await rawRequest(url, { headers, body: INITIALIZE })).status).toBe(200)
  })
})

describe('serveMcp over HTTP: bearer token', () => {
  it('generates a url-safe token when none is given', () => {
    expect(serving.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it.each([
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer wrong-token-of-some-length' }],
    ['the token under another scheme', {} as Record<string, string>],
  ])('answers %s with 401 and WWW-Authenticate: Bearer', async (name, extra) => {
    const headers = name.includes('scheme') ? { authorization: `Basic ${serving.token}` } : extra
    const before = runs
    const reply = await rawRequest(url, { headers: mcpHeaders(url, headers), body: INITIALIZE })
    expect(reply.status).toBe(401)
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer /)
    expect(rpcError(reply).message).toBe('Unauthorized: send the header "Authorization: Bearer <token>"')
    expect(reply.headers['mcp-session-id']).toBeUndefined()
    expect(runs).toBe(before)
  })

  it('refuses a real MCP client without the token', async () => {
    await expect(connect({})).rejects.toThrow(/Unauthorized/)
  })

  it('uses a fixed token, and serves anyone past the guard with auth: none', async () => {
    const fixed = await serveMcp(countingRuntime(), {
      transport: { http: { port: 0, auth: { token: 'a-fixed-token-for-the-test' } } },
      mode: 'native',
    })
    const open = await serveMcp(countingRuntime(), { transport: { http: { port: 0, auth: 'none' } }, mode: 'native' })
    try {
      expect(fixed.token).toBe('a-fixed-token-for-the-test')
      const headers = mcpHeaders(fixed.url!, { authorization: 'Bearer a-fixed-token-for-the-test' })
      expect((await rawRequest(fixed.url!, { headers, body: INITIALIZE })).status).toBe(200)
      expect(open.token).toBeUndefined()
      expect((await rawRequest(open.url!, { headers: mcpHeaders(open.url!), body: INITIALIZE })).status).toBe(200)
      const rebound = mcpHeaders(open.url!, { host: 'evil.example' })
      expect((await rawRequest(open.url!, { headers: rebound, body: INITIALIZE })).status).toBe(403)
    } finally {
      await Promise.all([fixed.close(), open.close()])
    }
  })

  it('refuses a short token and a bad allow-list entry before it listens', async () => {
    await expect(
      serveMcp(countingRuntime(), { transport: { http: { port: 0, auth: { token: 'short' } } }, mode: 'native' }),
    ).rejects.toThrow('auth.token must be at least 16 characters (got 5)')
    await expect(
      serveMcp(countingRuntime(), { transport: { http: { port: 0, allowedHosts: ['a b'] } }, mode: 'native' }),
    ).rejects.toThrow('allowedHosts: "a b" is not a host name or name:port')
  })
})

describe('serveMcp over HTTP: status codes', () => {
  const authorized = () => mcpHeaders(url, { authorization: bearer })

  it('answers a request without a session id with 400, creating nothing', async () => {
    const before = runs
    for (const method of ['POST', 'GET', 'DELETE']) {
      const reply = await rawRequest(url, { method, headers: authorized(), body: method === 'POST' ? touchCall : '' })
      expect(reply.status).toBe(400)
      expect(rpcError(reply).message).toMatch(/^Bad Request: the Mcp-Session-Id header is required/)
      expect(reply.headers['mcp-session-id']).toBeUndefined()
    }
    expect(runs).toBe(before)
  })

  it('answers an unknown session id with 404', async () => {
    for (const method of ['POST', 'GET', 'DELETE']) {
      const headers = { ...authorized(), 'mcp-session-id': 'no-such-session' }
      const reply = await rawRequest(url, { method, headers, body: method === 'POST' ? touchCall : '' })
      expect(reply.status).toBe(404)
      expect(rpcError(reply)).toEqual({ code: -32001, message: 'Session not found' })
    }
  })

  it('answers another path with 404 and a body that is not JSON with 400', async () => {
    expect((await rawRequest(`${url.replace('/mcp', '/other')}`, { headers: authorized() })).status).toBe(404)
    const garbled = await rawRequest(url, { headers: authorized(), body: '{"jsonrpc":' })
    expect(garbled.status).toBe(400)
    expect(rpcError(garbled).code).toBe(-32700)
  })

  it('answers a session that was closed with DELETE with 404', async () => {
    const session = await openSession()
    const headers = { ...authorized(), 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }
    expect((await rawRequest(url, { method: 'DELETE', headers })).status).toBe(200)
    expect((await rawRequest(url, { headers, body: touchCall })).status).toBe(404)
  })
})
