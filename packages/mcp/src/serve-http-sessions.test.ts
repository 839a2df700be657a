import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterEach, describe, expect, it } from 'vitest'
import { INITIALIZE, mcpHeaders, rawRequest, rpcError } from './__fixtures__/raw-http.js'
import { createSessionServer } from './mcp-session-server.js'
import { type HttpEndpoint, type HttpServeOptions, listenHttp } from './serve-http.js'

const TOKEN = 'sessions-test-token-0123456789'
const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** An endpoint over a one-tool runtime; `closed` counts the MCP servers that were closed. */
async function endpoint(options: Omit<HttpServeOptions, 'port'>) {
  const runtime = createToolRuntime()
  runtime.register(defineTool({ name: 'echo', description: 'Echoes.', parameters: {}, execute: () => 'echo' }))
  const counts = { opened: 0, closed: 0 }
  const served: HttpEndpoint = await listenHttp(
    () => {
      counts.opened++
      const server = createSessionServer(runtime)
      server.onclose = () => counts.closed++
      return server
    },
    { port: 0, auth: { token: TOKEN }, ...options },
  )
  cleanup.push(() => served.close())
  return { served, counts }
}

async function client(url: string): Promise<Client> {
  const mcp = new Client({ name: 'sessions-test', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
  })
  await mcp.connect(transport)
  cleanup.push(() => mcp.close())
  return mcp
}

const initialize = (url: string) =>
  rawRequest(url, { headers: mcpHeaders(url, { authorization: `Bearer ${TOKEN}` }), body: INITIALIZE })

describe('serve --http sessions: the cap', () => {
  it('refuses initialize past maxSessions with 503, while open sessions keep working', async () => {
    const { served, counts } = await endpoint({ maxSessions: 3 })
    const clients = [await client(served.url), await client(served.url), await client(served.url)]
    const refused = await initialize(served.url)
    expect(refused.status).toBe(503)
    expect(refused.headers['retry-after']).toBe('5')
    expect(rpcError(refused)).toEqual({
      code: -32000,
      message: 'Service Unavailable: too many open sessions; close one or retry later',
    })
    // Refused before an MCP server was made for it.
    expect(counts.opened).toBe(3)
    await expect(client(served.url)).rejects.toThrow(/too many open sessions/)
    for (const open of clients) expect((await open.callTool({ name: 'echo', arguments: {} })).isError).toBeUndefined()
    await (clients[0]!.transport as StreamableHTTPClientTransport).terminateSession()
    expect(served.openSessions).toBe(2)
    expect((await initialize(served.url)).status).toBe(200)
  })

  it('counts initialize requests still opening, so a burst cannot overshoot the cap', async () => {
    const { served } = await endpoint({ maxSessions: 5 })
    const replies = await Promise.all(Array.from({ length: 40 }, () => initialize(served.url)))
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(5)
    expect(replies.filter((reply) => reply.status === 503)).toHaveLength(35)
    expect(served.openSessions).toBe(5)
  })
})

describe('serve --http sessions: idle expiry', () => {
  it('closes an idle session and its MCP server; its id then gets 404', async () => {
    const { served, counts } = await endpoint({ sessionIdleMs: 100 })
    const reply = await initialize(served.url)
    const session = reply.headers['mcp-session-id'] as string
    expect(served.openSessions).toBe(1)
    await pause(300)
    expect(served.openSessions).toBe(0)
    expect(counts.closed).toBe(1)
    const late = await rawRequest(served.url, {
      headers: mcpHeaders(served.url, { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': session }),
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    })
    expect(late.status).toBe(404)
  })

  it('keeps a session whose client holds a stream open, however long', async () => {
    const { served } = await endpoint({ sessionIdleMs: 100 })
    const open = await client(served.url)
    // The SDK client opens the GET stream right after initialize; give it time to, then outlast the idle time.
    await pause(400)
    expect(served.openSessions).toBe(1)
    expect((await open.callTool({ name: 'echo', arguments: {} })).isError).toBeUndefined()
  })
})

setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void
function heapAfterGc(): number {
  for (let round = 0; round < 3; round++) collect()
  return process.memoryUsage().heapUsed
}

describe('serve --http sessions: memory', () => {
  it('gives back the memory of 2,000 sessions opened and abandoned', { timeout: 120_000 }, async () => {
    const { served, counts } = await endpoint({ sessionIdleMs: 4_000, maxSessions: 5_000 })
    const openMany = async (count: number) => {
      for (let batch = 0; batch < count / 20; batch++) {
        const replies = await Promise.all(Array.from({ length: 20 }, () => initialize(served.url)))
        for (const reply of replies) expect(reply.status).toBe(200)
      }
    }
    const drained = async () => {
      for (let waited = 0; served.openSessions > 0 && waited < 60_000; waited += 100) await pause(100)
      expect(served.openSessions).toBe(0)
    }
    // Warm up first: the code, the JIT and the caches grow the heap once, whatever the number of sessions.
    await openMany(200)
    await drained()
    const baseline = heapAfterGc()
    await openMany(2_000)
    const open = served.openSessions
    const perSession = (heapAfterGc() - baseline) / open
    await drained()
    expect(counts.closed).toBe(counts.opened)
    const kept = heapAfterGc() - baseline
    // The open sessions did cost memory (so a leak would show), and no more than a tenth of what 2,000 cost came back
    // short: what stays is the heap's own noise, the same after 1,000 sessions as after 4,000.
    expect(open).toBeGreaterThan(100)
    expect(perSession).toBeGreaterThan(5_000)
    expect(kept).toBeLessThan(2_000 * perSession * 0.1)
  })
})
