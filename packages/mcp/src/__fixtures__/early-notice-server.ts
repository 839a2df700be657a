/**
 * An MCP server for tests that says its tool list changed before it answers `initialize`, as a hostile or careless
 * server may: raw JSON-RPC over stdio, one message per line. It lists one tool, `echo`, and answers pings.
 */
import { createInterface } from 'node:readline'

const send = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`)
const echo = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: {} } }

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line) as { id?: number; method?: string; params?: { protocolVersion?: string } }
  if (message.id === undefined) continue
  if (message.method === 'initialize') {
    send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
    send({
      jsonrpc: '2.0',
      id: message.id,
      result: {
        protocolVersion: message.params?.protocolVersion,
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: 'early-notice', version: '1.0.0' },
      },
    })
  } else if (message.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: message.id, result: { tools: [echo] } })
  } else if (message.method === 'tools/call') {
    send({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'echoed' }] } })
  } else {
    send({ jsonrpc: '2.0', id: message.id, result: {} })
  }
}
