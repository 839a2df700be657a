import { Agent } from 'node:http'
import { connect } from 'node:net'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterEach, describe, expect, it } from 'vitest'
import { INITIALIZE, mcpHeaders, rawRequest, rpcError } from './__fixtures__/raw-http.js'
import { createSessionServer } from './mcp-session-server.js'
import { type HttpLimits, type HttpServeOptions, listenHttp } from './serve-http.js'

const TOKEN = 'hostile-test-token-0123456789'
const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function endpoint(options: Omit<HttpServeOptions, 'port'> = {}, limits: HttpLimits = {}) {
  const runtime = createToolRuntime()
  let opened = 0
  const served = await listenHttp(
    () => {
      opened++
      return createSessionServer(runtime)
    },
    { port: 0, auth: { token: TOKEN }, ...options },
    limits,
  )
  cleanup.push(() => served.close())
  return { served, opened: () => opened }
}

const authorized = (url: string, extra: Record<string, string> = {}) =>
  mcpHeaders(url, { authorization: `Bearer ${TOKEN}`, ...extra })

/** Runs `work` while sampling event-loop delay; resolves to the worst delay seen, in milliseconds. */
async function worstLag(work: () => Promise<unknown>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  try {
    await work()
  } finally {
    histogram.disable()
  }
  return histogram.max / 1e6
}

describe('serve --http under hostile peers', () => {
  it('answers a flood of bad Host, bad Origin and bad token requests with 403/401, creating nothing', async () => {
    const { served, opened } = await endpoint()
    const agent = new Agent({ keepAlive: true, maxSockets: 32 })
    cleanup.push(() => agent.destroy())
    const bad = [
      { host: 'rebound.example' },
      { origin: 'http://rebound.example' },
      { authorization: 'Bearer not-the-token' },
    ]
    const lag = await worstLag(async () => {
      const replies = await Promise.all(
        Array.from({ length: 1_500 }, (_, index) =>
          rawRequest(served.url, { headers: authorized(served.url, bad[index % 3]), body: INITIALIZE, agent }),
        ),
      )
      expect(new Set(replies.map((reply) => reply.status))).toEqual(new Set([403, 401]))
    })
    expect(opened()).toBe(0)
    expect(served.openSessions).toBe(0)
    // Responsive: no single turn of the loop blocked for long, and a good client is served at once.
    expect(lag).toBeLessThan(1_000)
    expect((await rawRequest(served.url, { headers: authorized(served.url), body: INITIALIZE })).status).toBe(200)
  })

  it('refuses thousands of initialize requests past the default cap of 100, and stays responsive', async () => {
    const { served, opened } = await endpoint()
    const agent = new Agent({ keepAlive: true, maxSockets: 32 })
    cleanup.push(() => agent.destroy())
    const replies = await Promise.all(
      Array.from({ length: 2_000 }, () =>
        rawRequest(served.url, { headers: authorized(served.url), body: INITIALIZE, agent }),
      ),
    )
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(100)
    expect(replies.filter((reply) => reply.status === 503)).toHaveLength(1_900)
    expect(opened()).toBe(100)
    expect(served.openSessions).toBe(100)
  })

  it('answers 413 to a body past the cap, declared or streamed, without reading it all', async () => {
    const { served, opened } = await endpoint({ maxBodyBytes: 64 * 1024 })
    const huge = Buffer.alloc(8 * 1024 * 1024, 0x20)
    const declared = await rawRequest(served.url, { headers: authorized(served.url), body: huge })
    expect(declared.status).toBe(413)
    expect(rpcError(declared).message).toBe('Payload Too Large: the request body must not exceed 65536 bytes')
    const streamed = await rawRequest(served.url, {
      headers: authorized(served.url, { 'transfer-encoding': 'chunked' }),
      body: huge,
    }).catch((error: NodeJS.ErrnoException) => ({ status: error.code ?? 'error', headers: {}, body: '' }))
    // The server answers 413 and closes the connection; a client still writing may see the reset instead.
    expect([413, 'ECONNRESET', 'EPIPE']).toContain(streamed.status)
    expect(opened()).toBe(0)
    expect((await rawRequest(served.url, { headers: authorized(served.url), body: INITIALIZE })).status).toBe(200)
  })

  it('drops a slowloris peer that never finishes its headers, while serving others', async () => {
    const { served } = await endpoint({}, { headersMs: 500, requestMs: 1_000 })
    const { port } = new URL(served.url)
    const peers = Array.from({ length: 50 }, () => {
      const socket = connect(Number(port), '127.0.0.1')
      socket.on('error', () => {})
      // Read what the server answers (a 408), or the socket never reports its close.
      socket.resume()
      socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `)
      return new Promise<number>((resolve) => {
        const started = Date.now()
        socket.once('close', () => resolve(Date.now() - started))
      })
    })
    expect((await rawRequest(served.url, { headers: authorized(served.url), body: INITIALIZE })).status).toBe(200)
    const lifetimes = await Promise.all(peers)
    for (const lifetime of lifetimes) expect(lifetime).toBeLessThan(5_000)
  })

  it('drops a peer that sends its headers and then trickles the body', async () => {
    const { served } = await endpoint({}, { headersMs: 500, requestMs: 1_000 })
    const { port } = new URL(served.url)
    const socket = connect(Number(port), '127.0.0.1')
    socket.on('error', () => {})
    socket.resume()
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
        'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{',
    )
    const trickle = setInterval(() => socket.write(' '), 100)
    cleanup.push(() => clearInterval(trickle))
    const started = Date.now()
    await new Promise((resolve) => socket.once('close', resolve))
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('refuses bodies past the shared budget with 503, serves small messages meanwhile, and gets the budget back', async () => {
    const { served } = await endpoint(
      { maxBodyBytes: 4 * 1024 * 1024 },
      { headersMs: 500, requestMs: 1_500, bufferedBodyBytes: 1024 * 1024 },
    )
    const { port } = new URL(served.url)
    const stalled = Array.from({ length: 4 }, () => {
      const socket = connect(Number(port), '127.0.0.1')
      socket.on('error', () => {})
      let answer = ''
      socket.on('data', (chunk: Buffer) => {
        answer += chunk
      })
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
          'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n' +
          `Content-Length: ${3 * 1024 * 1024}\r\n\r\n`,
      )
      socket.write(Buffer.alloc(600 * 1024, 0x20))
      return new Promise<string>((resolve) => socket.once('close', () => resolve(answer)))
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect((await rawRequest(served.url, { headers: authorized(served.url), body: INITIALIZE })).status).toBe(200)
    const answers = await Promise.all(stalled)
    const busy = answers.filter((answer) => answer.startsWith('HTTP/1.1 503'))
    expect(busy.length).toBeGreaterThanOrEqual(2)
    expect(busy[0]).toContain('too many request bodies in flight')
    // The stalled peers are gone (timed out or refused): a large body is read again, and found not to be JSON.
    const large = await rawRequest(served.url, {
      headers: authorized(served.url),
      body: Buffer.alloc(900 * 1024, 0x7b),
    })
    expect(large.status).toBe(400)
  })
})
