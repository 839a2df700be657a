import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'

/** JSON-RPC error codes the endpoint answers with before any MCP server sees the request. */
export const HttpRpcCode = { serverError: -32000, sessionNotFound: -32001, parseError: -32700 } as const

/** Refuses a request with `status` and a JSON-RPC error body (`id: null`: the request was never read as one). */
export function reject(
  response: ServerResponse,
  status: number,
  message: string,
  options: { readonly code?: number; readonly headers?: OutgoingHttpHeaders } = {},
): void {
  if (response.headersSent) {
    response.end()
    return
  }
  const body = JSON.stringify({
    jsonrpc: '2.0',
    error: { code: options.code ?? HttpRpcCode.serverError, message },
    id: null,
  })
  response.writeHead(status, { 'content-type': 'application/json', ...options.headers })
  response.end(body)
}

export type BodyRead = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly tooLarge: true }

/**
 * Reads a request body up to `maxBytes`. A declared `Content-Length` past it is refused before reading anything;
 * otherwise reading stops (the request is paused, not drained) at the first chunk past it.
 */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  if (Number(request.headers['content-length'] ?? 0) > maxBytes) return Promise.resolve({ ok: false, tooLarge: true })
  return new Promise((resolve, fail) => {
    const chunks: Buffer[] = []
    let received = 0
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength
      if (received <= maxBytes) {
        chunks.push(chunk)
        return
      }
      request.off('data', onData)
      request.pause()
      chunks.length = 0
      resolve({ ok: false, tooLarge: true })
    }
    request.on('data', onData)
    request.once('end', () => resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') }))
    request.once('error', fail)
    request.once('close', () => fail(new Error('the client closed the request before its body arrived')))
  })
}
