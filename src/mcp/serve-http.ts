import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'

export interface HttpEndpoint {
  /** `http://<host>:<port>/mcp` */
  readonly url: string
  close(): Promise<void>
}

const MCP_PATH = '/mcp'

/**
 * Streamable HTTP on `host:port` (port 0 picks a free one). Each client session gets its own MCP server from
 * `newServer`, keyed by the `mcp-session-id` header the transport assigns on `initialize`.
 */
export async function listenHttp(
  newServer: () => Server,
  options: { readonly port: number; readonly host?: string },
): Promise<HttpEndpoint> {
  const sessions = new Map<string, StreamableHTTPServerTransport>()

  const openSession = async () => {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport)
      },
      onsessionclosed: (sessionId) => {
        sessions.delete(sessionId)
      },
    })
    await newServer().connect(transport)
    return transport
  }

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== MCP_PATH) {
      response.writeHead(404).end()
      return
    }
    const sessionId = request.headers['mcp-session-id']
    const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined
    if (known !== undefined) return known.handleRequest(request, response)
    if (sessionId !== undefined || request.method !== 'POST') {
      response.writeHead(404, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }))
      return
    }
    const transport = await openSession()
    await transport.handleRequest(request, response)
    // Anything but a successful `initialize` leaves the transport without a session: nobody can reach it again.
    if (transport.sessionId === undefined) await transport.close()
  }

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500)
      response.end(String(error))
    })
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port, host, () => resolve())
  })
  const { port } = http.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${MCP_PATH}`,
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()))
      sessions.clear()
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}
