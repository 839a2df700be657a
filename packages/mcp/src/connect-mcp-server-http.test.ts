import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterEach, describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../../test/support/settled-result.js'
import { freePort, startEverythingHttp } from './__fixtures__/real-servers.js'
import { connectMcpServer } from './connect-mcp-server.js'
import type { McpConnection } from './mcp-connection-types.js'

const cleanup: (() => unknown)[] = []

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

describe('connectMcpServer over Streamable HTTP (server-everything)', () => {
  it('lists, calls, notices the server going away, and reconnects once it is back', async () => {
    const port = await freePort()
    let server = await startEverythingHttp(port)
    cleanup.push(() => server.stop())
    const runtime = createToolRuntime()
    const connection: McpConnection = await connectMcpServer(runtime, { name: 'http', url: server.url })
    cleanup.push(() => connection.dispose())
    expect(connection.tools).toContain('http__get-sum')
    expect(connection.status.state).toBe('connected')

    const sum = await runtime.execute({ id: '1', name: 'http__get-sum', arguments: { a: 2, b: 40 } })
    expect(sum.ok).toBe(true)
    expect(expectSuccess(sum).value).toContain('42')

    server.stop()
    const down = await runtime.execute({ id: '2', name: 'http__get-sum', arguments: { a: 1, b: 1 } })
    expect(expectFailure(down).error.code).toBe('TOOL_ERROR')
    expect(expectFailure(down).error.message).toMatch(/^MCP server "http" could not be reached/)
    expect(connection.status.state).toBe('failed')

    server = await startEverythingHttp(port)
    expect((await connection.reconnect()).state).toBe('connected')
    const again = await runtime.execute({ id: '3', name: 'http__get-sum', arguments: { a: 3, b: 4 } })
    expect(expectSuccess(again).value).toContain('7')
  })
})
