import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { NULL_BODY_STATUSES, withBody } from './rebuilt-response.js'

/** The largest message a server may send over HTTP, as over stdio: a JSON answer whole, or one event of a stream. */
export const MAX_HTTP_MESSAGE_BYTES = 10 * 1024 * 1024

/** JSON-RPC's code for an error the answering side made; here, the answer that could not be read. */
const INTERNAL_ERROR = -32603
const encoder = new TextEncoder()
const LINE_FEED = 0x0a
const CARRIAGE_RETURN = 0x0d

/**
 * The fetch the Streamable HTTP transport reads the MCP endpoint through: a JSON answer stops being read past
 * `maxBytes`, and so does an event stream whose current event grows past it without the blank line that ends it. The
 * read fails with an error naming the limit, so one request fails instead of the host buffering whatever a server
 * sends. A stream of many small events is never cut: only one event at a time is counted.
 */
export function boundedHttpMessages(base: FetchLike, maxBytes: number = MAX_HTTP_MESSAGE_BYTES): FetchLike {
  return async (input, init) => {
    const response = await base(input, init)
    if (response.body === null || NULL_BODY_STATUSES.has(response.status)) return response
    const declared = Number(response.headers.get('content-length'))
    const tooLarge = () => new Error(`the server sent a message of more than ${maxBytes} bytes; it was not read`)
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body.cancel().catch(() => {})
      throw tooLarge()
    }
    const streaming = response.headers.get('content-type')?.includes('text/event-stream') === true
    const counter = streaming ? eventCounter() : (chunk: Uint8Array, sofar: number) => sofar + chunk.byteLength
    let counted = 0
    const bounded = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          counted = counter(chunk, counted)
          if (counted <= maxBytes) return controller.enqueue(chunk)
          if (!streaming) return controller.error(tooLarge())
          // A broken stream fails no request (the SDK only reports it), so each request the POST carried is answered
          // with the refusal, after a blank line that ends the cut event, and the stream is closed.
          controller.enqueue(encoder.encode(`\n\n${refusalEvents(init?.body, tooLarge().message)}`))
          controller.terminate()
        },
      }),
    )
    return withBody(response, bounded)
  }
}

/** One `message` event per JSON-RPC request in `body` (a POST's text), each the error answer to it. */
function refusalEvents(body: unknown, message: string): string {
  let sent: unknown
  try {
    sent = typeof body === 'string' ? JSON.parse(body) : undefined
  } catch {
    return ''
  }
  const requests = Array.isArray(sent) ? sent : [sent]
  let events = ''
  for (const request of requests) {
    const id = (request as { id?: unknown } | undefined)?.id
    if (typeof id !== 'string' && typeof id !== 'number') continue
    const answer = { jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message } }
    events += `event: message\ndata: ${JSON.stringify(answer)}\n\n`
  }
  return events
}

/**
 * Counts the bytes of the event under way: a blank line (after `\n`, `\r\n` or `\r`, as the event-stream format
 * allows) ends an event and starts the count again.
 */
function eventCounter(): (chunk: Uint8Array, sofar: number) => number {
  let lineLength = 0
  let previous = -1
  return (chunk, sofar) => {
    let count = sofar
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index]!
      count++
      if (byte === LINE_FEED || byte === CARRIAGE_RETURN) {
        // The line feed of a `\r\n` ends no second line.
        if (!(byte === LINE_FEED && previous === CARRIAGE_RETURN)) {
          if (lineLength === 0) count = 0
          lineLength = 0
        }
      } else {
        lineLength++
      }
      previous = byte
    }
    return count
  }
}
