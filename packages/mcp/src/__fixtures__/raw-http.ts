import { type Agent, request } from 'node:http'

export interface RawReply {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: string
}

export interface RawRequest {
  readonly method?: string
  readonly headers?: Record<string, string>
  readonly body?: string | Buffer
  readonly agent?: Agent
}

/** One request through `node:http`, which (unlike fetch) sends whatever `Host` and `Origin` it is given. */
export function rawRequest(url: string, options: RawRequest = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: options.method ?? 'POST', headers: options.headers, agent: options.agent })
    outgoing.once('error', reject)
    outgoing.once('response', (incoming) => {
      const chunks: Buffer[] = []
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
      incoming.once('error', reject)
      incoming.once('end', () =>
        resolve({
          status: incoming.statusCode ?? 0,
          headers: incoming.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      )
    })
    outgoing.end(options.body)
  })
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
})

/** The headers a Streamable HTTP POST needs, for `url`'s own host. */
export function mcpHeaders(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    host: new URL(url).host,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...extra,
  }
}

/** The JSON-RPC error a refusal carries. */
export function rpcError(reply: RawReply): { code: number; message: string } {
  return (JSON.parse(reply.body) as { error: { code: number; message: string } }).error
}
