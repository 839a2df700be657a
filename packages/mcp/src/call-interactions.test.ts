import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {
  type CallToolResult,
  CallToolResultSchema,
  type ClientCapabilities,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import type { ToolRuntime } from 'qilin-tools/internal/pipeline/tool-runtime.js'
import { afterEach, describe, expect, it } from 'vitest'
import { everythingServer, fixtureServer } from './__fixtures__/real-servers.js'
import { MAX_PENDING_REQUESTS_PER_CALL } from './call-interactions.js'
import { connectMcpServer } from './connect-mcp-server.js'
import type { McpConnectOptions } from './mcp-connection-types.js'
import { MAX_PROGRESS_PER_SECOND, type McpProgress } from './progress-gate.js'
import { serveMcp } from './serve-mcp.js'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup().catch(() => {})))
})

const interactive = () => fixtureServer('interactive-server.ts', 'up')
const both: ClientCapabilities = { sampling: {}, elicitation: { form: {} } }

async function connected(
  options: Partial<McpConnectOptions> & Pick<McpConnectOptions, 'name'>,
  runtime: ToolRuntime = createToolRuntime(),
) {
  const connection = await connectMcpServer(runtime, {
    ...interactive(),
    capabilities: both,
    ...options,
  } as McpConnectOptions)
  cleanups.push(() => connection.dispose())
  return { runtime, connection }
}

/** The runtime served over Streamable HTTP, and an SDK client of it that declares `capabilities`. */
async function servedClient(runtime: ToolRuntime, capabilities: ClientCapabilities): Promise<Client> {
  const serving = await serveMcp(runtime, { transport: { http: { port: 0, auth: 'none' } }, mode: 'native' })
  cleanups.push(() => serving.close())
  const client = new Client({ name: 'calling-client', version: '1.0.0' }, { capabilities })
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.url!)))
  cleanups.push(() => client.close())
  return client
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text

describe('sampling and elicitation through serveMcp', () => {
  it("passes server-everything's sampling request to the client that made the call, and its answer back", async () => {
    const { runtime } = await connected({ ...everythingServer() })
    const client = await servedClient(runtime, both)
    const asked: string[] = []
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      const content = request.params.messages[0]?.content
      asked.push(content !== undefined && 'text' in content ? String(content.text) : '')
      return { role: 'assistant', content: { type: 'text', text: 'forty-two' }, model: 'test-model' }
    })
    const result = await client.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'hi' } })
    expect(asked).toEqual([expect.stringContaining('hi')])
    expect(textOf(result)).toContain('forty-two')
  })

  it('passes an elicitation on, and fills the form defaults the answer left out', async () => {
    const { runtime } = await connected({ name: 'up' })
    const client = await servedClient(runtime, both)
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }))
    const result = await client.callTool({ name: 'up__ask', arguments: {} })
    expect(textOf(result)).toBe('answer: accept {"name":"Ada","color":"teal"}')
  })

  it('fills the form defaults too when elicitation is declared the older way, as an empty object', async () => {
    const { runtime } = await connected({ name: 'up', capabilities: { sampling: {}, elicitation: {} } })
    const client = await servedClient(runtime, both)
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }))
    const result = await client.callTool({ name: 'up__ask', arguments: {} })
    expect(textOf(result)).toBe('answer: accept {"name":"Ada","color":"teal"}')
  })

  it('tells the server why when the calling client cannot sample', async () => {
    const { runtime } = await connected({ name: 'up' })
    const client = await servedClient(runtime, { elicitation: { form: {} } })
    const result = await client.callTool({ name: 'up__sample', arguments: {} })
    expect(textOf(result)).toContain('the MCP client that made the call does not support sampling')
  })

  it('refuses a request it cannot place: two calls in flight and no host answer', async () => {
    const { runtime } = await connected({ name: 'up' })
    const client = await servedClient(runtime, both)
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    client.setRequestHandler(ElicitRequestSchema, async () => {
      await gate
      return { action: 'decline' }
    })
    const results = await Promise.all([
      client.callTool({ name: 'up__ask', arguments: {} }),
      client.callTool({ name: 'up__ask', arguments: {} }),
      new Promise((resolve) => setTimeout(resolve, 1500)).then(release),
    ])
    const texts = results.slice(0, 2).map(textOf)
    // Both calls were in flight when each asked: nothing says which client request an upstream request belongs to.
    expect(texts.some((text) => text.includes('2 tool calls are running'))).toBe(true)
  })
})

describe('sampling and elicitation answered by the host', () => {
  it('asks onSampling when the call did not come through serveMcp', async () => {
    const seen: string[] = []
    const { runtime } = await connected({
      name: 'up',
      capabilities: {},
      onSampling: async (request) => {
        seen.push(request.server)
        return { role: 'assistant', content: { type: 'text', text: '42' }, model: 'host-model' }
      },
    })
    const result = await runtime.execute({ id: 'c1', name: 'up__sample', arguments: {} })
    expect(result.content).toEqual([{ type: 'text', text: 'sampled: 42' }])
    expect(seen).toEqual(['up'])
  })

  it('answers elicitation through onElicitation with the defaults applied (the client-defaults scenario)', async () => {
    const { runtime } = await connected({
      name: 'up',
      capabilities: {},
      onElicitation: async () => ({ action: 'accept', content: {} }),
    })
    const result = await runtime.execute({ id: 'c1', name: 'up__ask', arguments: {} })
    expect(result.content).toEqual([{ type: 'text', text: 'answer: accept {"color":"teal"}' }])
  })

  it('tells the server nobody can answer when nothing is declared to', async () => {
    const { runtime } = await connected({ name: 'up' })
    const result = await runtime.execute({ id: 'c1', name: 'up__sample', arguments: {} })
    expect(result.content[0]).toMatchObject({
      text: expect.stringContaining('the tool call did not come from an MCP client that could answer'),
    })
  })
})

describe('hostile interactions', () => {
  it(`forwards at most ${MAX_PENDING_REQUESTS_PER_CALL} sampling requests of one call at once and refuses the rest`, async () => {
    const { runtime } = await connected({ name: 'up' })
    const client = await servedClient(runtime, both)
    let open = 0
    let most = 0
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      open++
      most = Math.max(most, open)
      await new Promise((resolve) => setTimeout(resolve, 100))
      open--
      return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' }
    })
    const result = await client.callTool({ name: 'up__flood_sampling', arguments: { count: 200 } })
    const tally = JSON.parse(textOf(result)) as { answered: number; refused: number; reason: string }
    expect(most).toBeLessThanOrEqual(MAX_PENDING_REQUESTS_PER_CALL)
    // The flood arrives faster than the client answers: nearly all of it is refused on arrival, none forwarded.
    expect(tally.answered + tally.refused).toBe(200)
    expect(tally.refused).toBeGreaterThan(150)
    expect(tally.reason).toContain('too many sampling requests at once')
  })

  it('fails the call cleanly when the calling client never answers, and the connection stays usable', async () => {
    const { runtime, connection } = await connected({ name: 'up', requestTimeoutMs: 500 })
    const client = await servedClient(runtime, both)
    client.setRequestHandler(CreateMessageRequestSchema, () => new Promise(() => {}))
    const started = performance.now()
    const result = (await client.callTool({ name: 'up__sample', arguments: {} })) as CallToolResult
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(textOf(result)).toMatch(/timed out|sampling failed/i)
    expect(connection.status.state).toBe('connected')
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: 'assistant',
      content: { type: 'text', text: 'late but fine' },
      model: 'm',
    }))
    expect(textOf(await client.callTool({ name: 'up__sample', arguments: {} }))).toBe('sampled: late but fine')
  })

  it(`passes at most ${MAX_PROGRESS_PER_SECOND} progress reports a second of a flood`, async () => {
    const seen: McpProgress[] = []
    const { runtime } = await connected({ name: 'up', onProgress: (progress) => seen.push(progress) })
    const client = await servedClient(runtime, both)
    const relayed: Progress[] = []
    const started = performance.now()
    const result = await client.request(
      { method: 'tools/call', params: { name: 'up__flood_progress', arguments: { count: 20_000 } } },
      CallToolResultSchema,
      { onprogress: (progress) => relayed.push(progress) },
    )
    const seconds = (performance.now() - started) / 1000
    expect(textOf(result)).toBe('reported 20000')
    const ceiling = MAX_PROGRESS_PER_SECOND * (Math.ceil(seconds) + 1)
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.length).toBeLessThanOrEqual(ceiling)
    expect(relayed.length).toBeLessThanOrEqual(seen.length)
    expect(seen[0]).toMatchObject({ server: 'up', tool: 'flood_progress', progress: 1, total: 20_000 })
  })
})

describe('progress and log messages of a running call', () => {
  it("reaches the calling client under its own token, and the host's onProgress with the call id", async () => {
    const seen: McpProgress[] = []
    const { runtime } = await connected({ ...everythingServer(), onProgress: (progress) => seen.push(progress) })
    const client = await servedClient(runtime, both)
    const relayed: Progress[] = []
    await client.request(
      {
        method: 'tools/call',
        params: { name: 'everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
      },
      CallToolResultSchema,
      { onprogress: (progress) => relayed.push(progress) },
    )
    expect(relayed.map((progress) => progress.progress)).toEqual([1, 2, 3])
    expect(seen.map((progress) => [progress.tool, progress.progress, progress.total])).toEqual([
      ['trigger-long-running-operation', 1, 3],
      ['trigger-long-running-operation', 2, 3],
      ['trigger-long-running-operation', 3, 3],
    ])
    expect(seen[0]?.callId).toMatch(/^mcp-/)
  })

  it('sends the upstream log messages of a call to its client, at the level that client chose', async () => {
    const { runtime } = await connected({ name: 'up' })
    const client = await servedClient(runtime, both)
    const lines: unknown[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      lines.push([notification.params.logger, notification.params.data])
    })
    await client.setLoggingLevel('info')
    await client.callTool({ name: 'up__log_twice', arguments: {} })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(lines).toEqual([['up', 'first line']])
  })
})
