import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import type { ToolRuntime } from 'qilin-tools/internal/pipeline/tool-runtime.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { everythingServer } from './__fixtures__/real-servers.js'
import { isMcpCatalogError } from './catalog-error.js'
import { connectMcpServer } from './connect-mcp-server.js'
import type { McpConnection } from './mcp-connection-types.js'
import { serveMcp } from './serve-mcp.js'

let runtime: ToolRuntime
const cleanup: (() => Promise<unknown>)[] = []

beforeEach(() => {
  runtime = createToolRuntime({ mode: 'native' })
})

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => {})
})

async function connect(name = 'everything'): Promise<McpConnection> {
  const connection = await connectMcpServer(runtime, everythingServer(name))
  cleanup.push(() => connection.dispose())
  return connection
}

/** `serveMcp` over loopback HTTP with `upstreams`, and an SDK client connected to it. */
async function serveAndConnect(upstreams: readonly McpConnection[]): Promise<Client> {
  const serving = await serveMcp(runtime, { transport: { http: { port: 0 } }, mode: 'native', upstreams })
  cleanup.push(() => serving.close())
  const client = new Client({ name: 'downstream', version: '1.0.0' })
  cleanup.push(() => client.close())
  await client.connect(
    new StreamableHTTPClientTransport(new URL(serving.url as string), {
      requestInit: { headers: { authorization: `Bearer ${serving.token}` } },
    }),
  )
  return client
}

describe('connectMcpServer: the catalog of server-everything over stdio', () => {
  it('lists its resources, templates and prompts, the prompts prefixed like its tools', async () => {
    const connection = await connect()
    const { catalog } = connection
    expect(catalog.offers).toEqual({ resources: true, subscribe: true, prompts: true, completions: true })
    expect(catalog.resources.map((resource) => resource.uri)).toContain('demo://resource/static/document/features.md')
    expect(catalog.resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'demo://resource/dynamic/text/{resourceId}',
      'demo://resource/dynamic/blob/{resourceId}',
    ])
    expect(catalog.prompts.map((prompt) => prompt.name)).toEqual([
      'everything__simple-prompt',
      'everything__args-prompt',
      'everything__completable-prompt',
      'everything__resource-prompt',
    ])
  })

  it('reads a listed resource and one a template expands to, routing both to the server', async () => {
    const { catalog } = await connect()
    expect(catalog.routes('demo://resource/dynamic/text/7')).toBe('template')
    const listed = await catalog.readResource('demo://resource/static/document/features.md')
    expect(listed.contents[0]).toMatchObject({ uri: 'demo://resource/static/document/features.md' })
    const templated = await catalog.readResource('demo://resource/dynamic/text/7')
    expect(JSON.stringify(templated.contents)).toContain('7')
  })

  it('gets a prompt by its prefixed name and completes its arguments', async () => {
    const { catalog } = await connect()
    const prompt = await catalog.getPrompt('everything__args-prompt', { city: 'Lisbon' })
    expect(JSON.stringify(prompt.messages)).toContain('Lisbon')
    const completion = await catalog.complete({
      ref: { type: 'ref/prompt', name: 'everything__completable-prompt' },
      argument: { name: 'department', value: 'E' },
    })
    expect(completion.completion.values).toEqual(['Engineering'])
    const unknown = await catalog.getPrompt('args-prompt').catch((error: unknown) => error)
    expect(isMcpCatalogError(unknown) && unknown.code).toBe('UNKNOWN_PROMPT')
  })

  it('registers read_resource, which reads through the pipeline, and removes it on dispose', async () => {
    const connection = await connect()
    const result = await runtime.execute({
      id: 'read-1',
      name: 'read_resource',
      arguments: { uri: 'demo://resource/dynamic/text/3' },
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value).toMatchObject({
      contents: [{ uri: 'demo://resource/dynamic/text/3', mimeType: 'text/plain' }],
    })
    expect(result.content[0]).toMatchObject({ type: 'resource' })
    await connection.dispose()
    expect(runtime.get('read_resource')).toBeUndefined()
  })
})

describe('serveMcp({ upstreams }): server-everything proxied to an MCP client', () => {
  it('serves resources, templates, reads, prompts and completion under the same names', async () => {
    const client = await serveAndConnect([await connect()])
    expect(client.getServerCapabilities()).toMatchObject({
      resources: { listChanged: true, subscribe: true },
      prompts: { listChanged: true },
      completions: {},
    })
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri)).toContain('demo://resource/static/document/architecture.md')
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates).toHaveLength(2)
    const blob = await client.readResource({ uri: 'demo://resource/dynamic/blob/5' })
    expect(blob.contents[0]).toHaveProperty('blob')
    const { prompts } = await client.listPrompts()
    expect(prompts.map((prompt) => prompt.name)).toContain('everything__simple-prompt')
    const simple = await client.getPrompt({ name: 'everything__simple-prompt' })
    expect(simple.messages[0]?.role).toBe('user')
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'everything__completable-prompt' },
      argument: { name: 'department', value: 'M' },
    })
    expect(completion.completion.values).toEqual(['Marketing'])
  })

  it('fails a read no upstream lists with MCP resource-not-found and the stable code', async () => {
    const first = await connect('one')
    const second = await connect('two')
    const client = await serveAndConnect([first, second])
    const failure = await client.readResource({ uri: 'nowhere://at/all' }).catch((error: unknown) => error)
    expect(failure).toMatchObject({ code: -32002, data: { code: 'UNKNOWN_RESOURCE' } })
  })

  it('forwards a subscription upstream and passes the updates on to the subscribed client', async () => {
    const client = await serveAndConnect([await connect()])
    const uri = 'demo://resource/static/document/architecture.md'
    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
        resolve(notification.params.uri),
      )
    })
    await client.subscribeResource({ uri })
    // server-everything sends updates to its subscribers once this tool turns them on.
    await client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} })
    expect(await updated).toBe(uri)
    await client.unsubscribeResource({ uri })
  })

  it('keeps two servers apart: each prompt under its own prefix, a shared URI read from the first', async () => {
    const client = await serveAndConnect([await connect('left'), await connect('right')])
    const names = (await client.listPrompts()).prompts.map((prompt) => prompt.name)
    expect(names).toContain('left__simple-prompt')
    expect(names).toContain('right__simple-prompt')
    const uris = (await client.listResources()).resources.map((resource) => resource.uri)
    expect(uris.filter((uri) => uri === 'demo://resource/static/document/features.md')).toHaveLength(1)
  })
})
