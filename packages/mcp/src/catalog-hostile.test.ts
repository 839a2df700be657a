import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import type { ToolRuntime } from 'qilin-tools/internal/pipeline/tool-runtime.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startHealthProbe } from '../../../test/support/host-health-probe.js'
import { expectFailure } from '../../../test/support/settled-result.js'
import { fixtureServer } from './__fixtures__/real-servers.js'
import { isMcpCatalogError } from './catalog-error.js'
import { connectMcpServer } from './connect-mcp-server.js'
import type { McpConnection, McpConnectOptions } from './mcp-connection-types.js'
import { serveMcp } from './serve-mcp.js'

let runtime: ToolRuntime
const cleanup: (() => Promise<unknown>)[] = []

beforeEach(() => {
  runtime = createToolRuntime({ mode: 'native' })
})

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => {})
})

/** The hostile fixture running `attack`, connected as `name`. */
async function connect(attack: string, options: Partial<McpConnectOptions> = {}): Promise<McpConnection> {
  const server = fixtureServer('./hostile-catalog-server.ts', options.name ?? attack)
  const connection = await connectMcpServer(runtime, {
    ...server,
    args: [...(server.args ?? []), attack],
    ...options,
  } as McpConnectOptions)
  cleanup.push(() => connection.dispose())
  return connection
}

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

describe('hostile upstream servers against the catalog', () => {
  it('stops an endless resources/list pagination at 100 pages and stays connected', async () => {
    const connection = await connect('endless-pages')
    expect(connection.catalog.resources).toHaveLength(100)
    expect(connection.status.state).toBe('connected')
    expect(connection.status.error).toBe('resources/list: listing cut at 100 pages')
  })

  it.each([
    ['endless-tool-pages', 100, 'tools/list: listing cut at 100 pages'],
    ['repeated-tool-cursor', 2, 'tools/list: listing stopped at a repeated cursor'],
  ])(
    '%s: the tool listing ends, registers what it read and says why',
    async (attack, count, problem) => {
      const connection = await connect(attack)
      expect(connection.tools).toHaveLength(count)
      expect(connection.tools[0]).toBe(`${attack}__page_1`)
      expect(connection.status).toMatchObject({ state: 'connected', error: problem })
    },
    30_000,
  )

  it('keeps 10,000 of 100,000 listed resources, with the host responsive', async () => {
    const probe = startHealthProbe()
    const connection = await connect('many-resources')
    const health = probe.stop()
    expect(connection.catalog.resources).toHaveLength(10_000)
    expect(connection.status.error).toBe('resources/list: listing cut at 10000 entries')
    // The SDK parses and checks the 100,000-entry page on this thread; what we keep costs far less.
    console.info(
      `100,000 resources: lagBusyMs ${health.lagBusyMs.toFixed(0)}, rssPeakMb ${health.rssPeakMb.toFixed(0)}`,
    )
    expect(health.lagBusyMs).toBeLessThan(5000)
  })

  it('refuses a 10 MB resource with ANSWER_TOO_LARGE, to the catalog, the served client and read_resource', async () => {
    const connection = await connect('huge-text')
    const direct = await connection.catalog.readResource('test://shared').catch((error: unknown) => error)
    expect(isMcpCatalogError(direct) && direct.code).toBe('ANSWER_TOO_LARGE')
    expect((direct as Error).message).toMatch(/over the 4194304-byte limit \(maxContentBytes\)/)

    const client = await serveAndConnect([connection])
    const served = await client.readResource({ uri: 'test://shared' }).catch((error: unknown) => error)
    expect(served).toMatchObject({ data: { code: 'ANSWER_TOO_LARGE' } })

    const tool = expectFailure(
      await runtime.execute({ id: 'read-1', name: 'read_resource', arguments: { uri: 'test://shared' } }),
    )
    expect(tool.error.code).toBe('TOOL_ERROR')
    expect(tool.error.message).toMatch(/\(ANSWER_TOO_LARGE\)$/)
    // The connection is fine afterwards: the next request is answered.
    expect((await client.getPrompt({ name: 'huge-text__greet' })).messages).toHaveLength(1)
  })

  it('reads the 10 MB resource when maxContentBytes allows it', async () => {
    const connection = await connect('huge-text', { maxContentBytes: 16 * 1024 * 1024 })
    const answer = await connection.catalog.readResource('test://shared')
    const content = answer.contents[0]
    expect(content !== undefined && 'text' in content && content.text.length).toBe(10 * 1024 * 1024)
  })

  it('never lets a second server shadow the first one’s prompt or resource', async () => {
    const tame = await connect('tame', { prefix: false })
    const shadow = await connect('shadow', { prefix: false })
    const client = await serveAndConnect([tame, shadow])
    const prompts = (await client.listPrompts()).prompts
    expect(prompts.map((prompt) => prompt.name)).toEqual(['greet'])
    expect(prompts[0]?.description).toBe('Greets (tame).')
    expect(JSON.stringify((await client.getPrompt({ name: 'greet' })).messages)).toContain('greeting from tame')
    const read = await client.readResource({ uri: 'test://shared' })
    expect(read.contents[0]).toMatchObject({ text: 'read from tame' })
  })

  it('keeps both servers’ prompts under their prefixes by default', async () => {
    const client = await serveAndConnect([await connect('tame'), await connect('shadow')])
    const names = (await client.listPrompts()).prompts.map((prompt) => prompt.name)
    expect(names).toEqual(['tame__greet', 'shadow__greet'])
    expect(JSON.stringify((await client.getPrompt({ name: 'shadow__greet' })).messages)).toContain('from shadow')
  })

  it('leaves a host tool named read_resource alone and still connects', async () => {
    const own = defineTool({
      name: 'read_resource',
      description: 'The host’s own.',
      parameters: {},
      execute: () => 'mine',
    })
    runtime.register(own as never)
    const connection = await connect('tame')
    expect(connection.status.state).toBe('connected')
    expect(connection.status.error).toMatch(/^read_resource not registered: /)
    expect(runtime.get('read_resource')?.description).toBe('The host’s own.')
  })

  it('skips a tool whose schema cannot be compiled, registers the rest, and says which and why', async () => {
    const connection = await connect('broken-tools')
    expect(connection.tools).toEqual([expect.stringContaining('echo')])
    expect(connection.skippedTools).toEqual([
      { name: 'dangling', reason: expect.stringContaining('"#/nowhere" does not resolve to a schema') },
      { name: 'odd', reason: expect.stringContaining('unknown type "nonsense"') },
      { name: `${'w'.repeat(255)}…`, reason: expect.stringMatching(/^Tool "broken-tools__w+_[0-9a-f]{8}": .*…$/) },
    ])
    expect(connection.skippedTools[2]!.reason).toHaveLength(1_000)
    const echo = connection.tools[0]!
    const result = await runtime.execute({ id: 'e', name: echo, arguments: '{"text":"hi"}' })
    expect(result.ok && result.content).toEqual([{ type: 'text', text: 'echo: hi' }])
    expect(runtime.schemas().map((schema) => schema.name)).not.toContain(expect.stringContaining('dangling'))
  })
})
