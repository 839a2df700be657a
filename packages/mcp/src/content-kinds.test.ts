import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectSuccess } from '../../../test/support/settled-result.js'
import { everythingServer } from './__fixtures__/real-servers.js'
import { connectMcpServer } from './connect-mcp-server.js'
import type { McpConnection } from './mcp-connection-types.js'
import { type McpServing, serveMcp } from './serve-mcp.js'

// Every MCP content kind through the proxy: server-everything (a real MCP server) -> connectMcpServer -> the
// pipeline -> serveMcp over Streamable HTTP -> a real SDK client.
const runtime = createToolRuntime()
let connection: McpConnection
let serving: McpServing
let client: Client

beforeAll(async () => {
  connection = await connectMcpServer(runtime, everythingServer())
  serving = await serveMcp(runtime, { transport: { http: { port: 0 } }, mode: 'native' })
  client = new Client({ name: 'content-kinds-test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(serving.url!), {
      requestInit: { headers: { authorization: `Bearer ${serving.token}` } },
    }),
  )
})

afterAll(async () => {
  await client.close()
  await serving.close()
  await connection.dispose()
})

describe('content kinds end to end', () => {
  it('keeps an embedded binary resource a resource, in our result and for the proxy client', async () => {
    const arguments_ = { resourceType: 'Blob', resourceId: 2 }
    const ours = expectSuccess(
      await runtime.execute({ id: 'c1', name: 'everything__get-resource-reference', arguments: arguments_ }),
    )
    const resource = ours.content.find((part) => part.type === 'resource')
    expect(resource).toMatchObject({ type: 'resource', resource: { uri: expect.stringMatching(/2$/) } })
    expect(resource?.type === 'resource' && 'blob' in resource.resource).toBe(true)

    const served = (await client.callTool({
      name: 'everything__get-resource-reference',
      arguments: arguments_,
    })) as CallToolResult
    // server-everything writes the time of each read into the blob, so two reads compare by all but its seconds.
    const { blob, ...rest } = (resource as { resource: { blob: string } }).resource
    expect(served.content.filter((block) => block.type === 'resource')).toEqual([
      { type: 'resource', resource: { ...rest, blob: expect.any(String) } },
    ])
    const servedBlob = (served.content.find((block) => block.type === 'resource') as { resource: { blob: string } })
      .resource.blob
    const text = (base64: string) =>
      Buffer.from(base64, 'base64')
        .toString('utf8')
        .replace(/\d+:\d+:\d+/, 'TIME')
    expect(text(servedBlob)).toBe(text(blob))
  })

  it('keeps resource links links, with their names, and puts them in the value text', async () => {
    const ours = expectSuccess(
      await runtime.execute({ id: 'c2', name: 'everything__get-resource-links', arguments: { count: 2 } }),
    )
    const links = ours.content.filter((part) => part.type === 'resource_link')
    expect(links).toHaveLength(2)
    expect(links[0]).toMatchObject({ uri: expect.any(String), name: expect.any(String) })
    expect(ours.value).toContain((links[0] as { uri: string }).uri)

    const served = (await client.callTool({
      name: 'everything__get-resource-links',
      arguments: { count: 2 },
    })) as CallToolResult
    expect(served.content.filter((block) => block.type === 'resource_link')).toEqual(links)
  })
})
