import { describe, expect, it } from 'vitest'
import { boundedHttpMessages } from './bounded-http-messages.js'

const encoder = new TextEncoder()

/** A fetch answering `chunks` as a stream with `contentType`. */
function answering(contentType: string, chunks: readonly string[], headers: Record<string, string> = {}) {
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
          controller.close()
        },
      }),
      { headers: { 'content-type': contentType, ...headers } },
    )
}

describe('what an MCP server may send over HTTP in one message', () => {
  it('reads a JSON answer up to the limit and fails one past it, naming the limit', async () => {
    const fits = boundedHttpMessages(answering('application/json', ['{"a":', '"12345"}']), 13)
    expect(await (await fits('http://x/')).json()).toEqual({ a: '12345' })
    const over = boundedHttpMessages(answering('application/json', ['{"a":', '"123456"}']), 13)
    await expect((await over('http://x/')).text()).rejects.toThrow(/more than 13 bytes/)
  })

  it('refuses a declared length past the limit before reading', async () => {
    const declared = boundedHttpMessages(answering('application/json', ['{}'], { 'content-length': '99' }), 10)
    await expect(declared('http://x/')).rejects.toThrow(/more than 10 bytes/)
  })

  it('counts an event stream one event at a time, with any line ending', async () => {
    const events = Array.from(
      { length: 50 },
      (_, index) => ['data: 0123456789\n\n', 'data: 0123456789\r\n\r\n', 'data: 0123456789\r\r'][index % 3]!,
    )
    const many = boundedHttpMessages(answering('text/event-stream', events), 24)
    expect((await (await many('http://x/')).text()).length).toBe(events.join('').length)
    const split = boundedHttpMessages(
      answering('text/event-stream', ['data: 01234', '56789\r', '\n\r', '\ndata: x\n\n']),
      24,
    )
    expect(await (await split('http://x/')).text()).toContain('data: x')
    const endless = boundedHttpMessages(answering('text/event-stream', ['data: ', 'x'.repeat(30), '\n\nlater']), 24)
    const post = { method: 'POST', body: JSON.stringify([{ jsonrpc: '2.0', id: 7, method: 'tools/list' }]) }
    const cut = await (await endless('http://x/', post)).text()
    expect(cut).toBe(
      'data: \n\nevent: message\ndata: {"jsonrpc":"2.0","id":7,"error":{"code":-32603,' +
        '"message":"the server sent a message of more than 24 bytes; it was not read"}}\n\n',
    )
  })

  it('keeps the status, the headers and the URL the SDK reads', async () => {
    const base = async () => {
      const response = new Response('{}', { status: 202, headers: { 'mcp-session-id': 's1' } })
      Object.defineProperty(response, 'url', { value: 'http://x/mcp' })
      return response
    }
    const response = await boundedHttpMessages(base)('http://x/mcp')
    expect([response.status, response.headers.get('mcp-session-id'), response.url]).toEqual([202, 's1', 'http://x/mcp'])
  })
})
