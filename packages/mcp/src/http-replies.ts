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

export type BodyRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: 'too-large' | 'busy' }

/**
 * Bytes of request bodies held at once across every request, so many large bodies together cannot exhaust memory.
 * The first `FREE_BODY_BYTES` of each body are not counted: ordinary messages never wait on the greedy ones.
 */
export interface BodyBudget {
  take(bytes: number): boolean
  give(bytes: number): void
}

export const FREE_BODY_BYTES = 64 * 1024

export function createBodyBudget(limit: number): BodyBudget {
  let used = 0
  return {
    take(bytes) {
      if (used + bytes > limit) return false
      used += bytes
      return true
    },
    give(bytes) {
      used -= bytes
    },
  }
}

/**
 * Reads a request body up to `maxBytes`, holding its bytes against `budget` until it is read. A declared
 * `Content-Length` past the cap is refused before reading anything; otherwise reading stops (the request is paused,
 * not drained) at the first chunk past the cap or the budget.
 */
export function readBody(request: IncomingMessage, maxBytes: number, budget: BodyBudget): Promise<BodyRead> {
  if (Number(request.headers['content-length'] ?? 0) > maxBytes) {
    return Promise.resolve({ ok: false, reason: 'too-large' })
  }
  return new Promise((resolve, fail) => {
    const chunks: Buffer[] = []
    let received = 0
    let held = 0
    const finish = (read: BodyRead | Error) => {
      request.off('data', onData)
      budget.give(held)
      held = 0
      chunks.length = 0
      if (read instanceof Error) fail(read)
      else resolve(read)
    }
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength
      const counted = Math.max(0, received - FREE_BODY_BYTES) - held
      if (received > maxBytes || !budget.take(counted)) {
        request.pause()
        finish({ ok: false, reason: received > maxBytes ? 'too-large' : 'busy' })
        return
      }
      held += counted
      chunks.push(chunk)
    }
    request.on('data', onData)
    request.once('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      finish({ ok: true, text })
    })
    request.once('error', (error) => finish(error))
    request.once('close', () => finish(new Error('the client closed the request before its body arrived')))
  })
}
