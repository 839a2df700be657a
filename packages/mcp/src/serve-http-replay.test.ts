import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterEach, describe, expect, it } from 'vitest'
import { createSessionServer } from './mcp-session-server.js'
import { type HttpServeOptions, listenHttp } from './serve-http.js'

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A session on an endpoint whose one tool answers after `ms`. */
async function session(options: Partial<HttpServeOptions> = {}) {
  const runtime = createToolRuntime()
  runtime.register(
    defineTool({
      name: 'slow',
      description: 'Answers after a while.',
      parameters: {},
      execute: async () => {
        await pause(400)
        return 'done at last'
      },
    }),
  )
  const served = await listenHttp(() => createSessionServer(runtime), { port: 0, auth: 'none', ...options })
  cleanup.push(() => served.close())
  const client = new Client({ name: 'replay-test', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(served.url))
  await client.connect(transport)
  cleanup.push(() => client.close())
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': transport.sessionId!,
    'mcp-protocol-version': '2025-11-25',
  }
  return { url: served.url, headers }
}

/** Reads SSE events from `response` until `until` says stop, then lets the stream go. */
async function readEvents(response: Response, until: (events: string[]) => boolean): Promise<string[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  const events: string[] = []
  while (!until(events)) {
    const { value, done } = await reader.read()
    if (done) break
    text += value
    const parts = text.split('\n\n')
    text = parts.pop() ?? ''
    events.push(...parts)
  }
  await reader.cancel()
  return events
}

const call = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow', arguments: {} } })

describe('resumable streams', () => {
  it('primes each call stream with an id and a retry time, and replays what a dropped stream missed', async () => {
    const { url, headers } = await session({ replay: { retryMs: 250 } })
    const posted = await fetch(url, { method: 'POST', headers, body: call })
    expect(posted.headers.get('content-type')).toContain('text/event-stream')
    // The client drops the stream after the priming event, while the tool still runs.
    const [priming] = await readEvents(posted, (events) => events.length >= 1)
    expect(priming).toMatch(/^id: \S+\nretry: 250\ndata: $/)
    const lastEventId = /^id: (\S+)/.exec(priming ?? '')?.[1] as string
    await pause(600)
    const resumed = await fetch(url, { method: 'GET', headers: { ...headers, 'last-event-id': lastEventId } })
    expect(resumed.status).toBe(200)
    const events = await readEvents(resumed, (seen) => seen.some((event) => event.includes('"id":7')))
    expect(events.find((event) => event.includes('"id":7'))).toContain('done at last')
  })

  it('refuses a Last-Event-ID it does not hold', async () => {
    const { url, headers } = await session()
    const resumed = await fetch(url, { method: 'GET', headers: { ...headers, 'last-event-id': 'x'.repeat(4000) } })
    expect(resumed.status).toBe(400)
    await resumed.body?.cancel()
  })

  it('sends no event ids when replay is off', async () => {
    const { url, headers } = await session({ replay: false })
    const posted = await fetch(url, { method: 'POST', headers, body: call })
    const events = await readEvents(posted, (seen) => seen.some((event) => event.includes('"id":7')))
    expect(events.some((event) => event.startsWith('id:'))).toBe(false)
  })

  it('checks its limits before it listens', async () => {
    await expect(
      listenHttp(() => createSessionServer(createToolRuntime()), {
        port: 0,
        auth: 'none',
        replay: { events: -1 },
      }),
    ).rejects.toThrow('http.replay.events must be a positive number')
  })
})
