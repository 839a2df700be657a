import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, it } from 'vitest'
import { defineTool } from '../definition/define-tool.js'
import { createToolRuntime } from '../pipeline/create-tool-runtime.js'
import { connectMcpServer } from './connect-mcp-server.js'
import { type McpServing, serveMcp } from './serve-mcp.js'

const cleanup: (() => Promise<void>)[] = []

afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close()))
})

const hinted = defineTool({
  name: 'list_orders',
  description: 'Lists orders.',
  parameters: {},
  annotations: {
    title: 'List orders',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  execute: () => 'no orders',
})

const destructive = defineTool({
  name: 'drop_orders',
  description: 'Deletes every order.',
  parameters: {},
  annotations: { destructiveHint: true, openWorldHint: true },
  execute: () => 'dropped',
})

async function serving(): Promise<McpServing> {
  const runtime = createToolRuntime()
  runtime.register(hinted)
  runtime.register(destructive)
  const served = await serveMcp(runtime, { transport: { http: { port: 0 } }, mode: 'native' })
  cleanup.push(() => served.close())
  return served
}

describe('DSL annotations when served', () => {
  it('reach a real MCP client in tools/list, every hint and the title as written', async () => {
    const served = await serving()
    const client = new Client({ name: 'annotations-test', version: '1.0.0' })
    cleanup.push(() => client.close())
    await client.connect(
      new StreamableHTTPClientTransport(new URL(served.url!), {
        requestInit: { headers: { authorization: `Bearer ${served.token}` } },
      }),
    )
    const { tools } = await client.listTools()
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]))
    expect(byName.list_orders?.annotations).toEqual({
      title: 'List orders',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    })
    expect(byName.list_orders?.title).toBe('List orders')
    expect(byName.drop_orders?.annotations).toEqual({ destructiveHint: true, openWorldHint: true })
  })

  it('come back whole through connectMcpServer, and the read-only tool is parallel on both sides', async () => {
    const served = await serving()
    const runtime = createToolRuntime()
    const connection = await connectMcpServer(runtime, {
      name: 'shop',
      url: served.url!,
      headers: { authorization: `Bearer ${served.token}` },
    })
    cleanup.push(() => connection.dispose())
    const proxied = runtime.get('shop__list_orders')
    expect(proxied?.annotations).toEqual(hinted.annotations)
    expect(proxied?.executionMode).toBe('parallel')
    expect(runtime.get('shop__drop_orders')?.executionMode).toBe('exclusive')
    const result = await runtime.execute({ id: 'o1', name: 'shop__list_orders', arguments: {} })
    expect(result).toMatchObject({ ok: true, content: [{ type: 'text', text: 'no orders' }] })
  })
})
