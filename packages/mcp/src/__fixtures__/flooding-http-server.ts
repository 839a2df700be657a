/**
 * An MCP server over HTTP for tests that answers `tools/list` with a flood: `node --import tsx
 * flooding-http-server.ts <json|sse>` prints its port, answers initialize as a server would, then sends 400 MB of one
 * JSON answer (`json`) or of one event that never ends (`sse`), writing only as fast as the client reads.
 */
import { createServer, type ServerResponse } from 'node:http'

const mode = process.argv[2] === 'sse' ? 'sse' : 'json'
const FLOOD_BYTES = 400 * 1024 * 1024
const chunk = Buffer.from('{"name":"t","inputSchema":{"type":"object"}},'.repeat(1500))

function flood(response: ServerResponse, opening: string): void {
  let sent = 0
  response.write(opening)
  const more = () => {
    while (sent < FLOOD_BYTES) {
      sent += chunk.length
      if (!response.write(chunk)) return void response.once('drain', more)
    }
    response.end()
  }
  response.on('error', () => {})
  more()
}

const server = createServer((request, response) => {
  if (request.method !== 'POST') return void response.writeHead(405).end()
  const parts: Buffer[] = []
  request.on('data', (part: Buffer) => parts.push(part))
  request.on('end', () => {
    const message = JSON.parse(Buffer.concat(parts).toString('utf8')) as { id?: number; method?: string }
    if (message.id === undefined) return void response.writeHead(202).end()
    if (message.method === 'initialize') {
      response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'flood' })
      return void response.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: message.id,
          result: {
            protocolVersion: '2025-06-18',
            capabilities: { tools: {} },
            serverInfo: { name: 'flood', version: '1.0.0' },
          },
        }),
      )
    }
    if (message.method === 'tools/list') {
      response.writeHead(200, { 'content-type': mode === 'sse' ? 'text/event-stream' : 'application/json' })
      const opening = `{"jsonrpc":"2.0","id":${message.id},"result":{"tools":[`
      return flood(response, mode === 'sse' ? `event: message\ndata: ${opening}` : opening)
    }
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }))
  })
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`${typeof address === 'object' && address !== null ? address.port : 0}\n`)
})
