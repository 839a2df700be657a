import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {
  type CallToolResult,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { createNodePtcRuntime } from '@qilin-tools/code-mode-node'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { expectSuccess } from '../../../test/support/settled-result.js'
import { fixtureTools } from './__fixtures__/fixture-tools.js'
import { fixtureServer } from './__fixtures__/real-servers.js'
import { connectMcpServer } from './connect-mcp-server.js'
import { elicitationApprover } from './elicitation-approver.js'
import { type McpServing, serveMcp } from './serve-mcp.js'

type Mode = 'native' | 'ptc' | 'both'
type Answer = 'accept' | 'decline' | undefined

const clients: Client[] = []

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

function newClient(answer: Answer): Client {
  const client = new Client(
    { name: 'test-client', version: '1.0.0' },
    answer === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  )
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, () =>
      answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' },
    )
  }
  clients.push(client)
  return client
}

async function overStdio(mode: Mode, answer?: Answer): Promise<Client> {
  const fixture = fixtureServer('serve-fixture.ts', 'served')
  const client = newClient(answer)
  await client.connect(
    new StdioClientTransport({ command: fixture.command, args: [...(fixture.args ?? []), mode], cwd: fixture.cwd! }),
  )
  return client
}

const ptcRuntime = createNodePtcRuntime()
const servings: McpServing[] = []
const endpoints: Partial<Record<Mode, McpServing>> = {}

beforeAll(async () => {
  for (const mode of ['native', 'ptc', 'both'] as const) {
    const runtime = createToolRuntime({ ptcRuntime, approve: elicitationApprover(() => false) })
    for (const tool of fixtureTools()) runtime.register(tool)
    runtime.on('tools/pre-execute', (event) =>
      event.call.name === 'ask_me' ? { action: 'ask', reason: 'it asks' } : undefined,
    )
    const serving = await serveMcp(runtime, { transport: { http: { port: 0 } }, mode })
    servings.push(serving)
    endpoints[mode] = serving
  }
})

afterAll(async () => {
  await Promise.all(servings.map((serving) => serving.close()))
  await ptcRuntime.close()
})

/** A real client transport that sends the serving's token and never opens the optional GET stream. */
function httpTransport(serving: McpServing): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(serving.url!), {
    requestInit: { headers: { authorization: `Bearer ${serving.token}` } },
    fetch: (url, init) =>
      init?.method === 'GET' ? Promise.resolve(new Response(null, { status: 405 })) : fetch(url, init),
  })
}

async function overHttp(mode: Mode, answer?: Answer): Promise<Client> {
  const client = newClient(answer)
  await client.connect(httpTransport(endpoints[mode]!))
  return client
}

const text = (result: unknown) =>
  (result as CallToolResult).content.map((block) => (block.type === 'text' ? block.text : block.type)).join('\n')

describe.each([
  ['stdio', overStdio],
  ['http', overHttp],
] as const)('serveMcp over %s', (_transport, open) => {
  it('lists every visible tool with its schema, annotations and output schema in native mode', async () => {
    const client = await open('native')
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['add', 'ask_me', 'fail', 'shout'])
    expect(tools[0]).toMatchSnapshot()
    expect(tools.find((tool) => tool.name === 'shout')).not.toHaveProperty('outputSchema')
  })

  it('runs calls through the pipeline: structured values, text, failures as isError', async () => {
    const client = await open('native')
    await client.listTools()
    const added = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })
    expect(added.structuredContent).toEqual({ sum: 5 })
    expect(added.isError).toBeUndefined()
    expect(text(await client.callTool({ name: 'shout', arguments: { text: 'hi' } }))).toBe('HI')
    const failed = await client.callTool({ name: 'fail', arguments: {} })
    expect(failed).toEqual({ content: [{ type: 'text', text: 'Error: this tool always fails' }], isError: true })
    const invalid = await client.callTool({ name: 'add', arguments: { a: 'two' } })
    expect(invalid.isError).toBe(true)
    const unknown = await client.callTool({ name: 'nope', arguments: {} })
    expect(unknown.isError).toBe(true)
    expect(text(unknown)).toMatch(/^Error: /)
  })

  it('asks through elicitation when the client supports it', async () => {
    expect(text(await (await open('native', 'accept')).callTool({ name: 'ask_me', arguments: {} }))).toBe(
      'approved and ran',
    )
    const declined = await (await open('native', 'decline')).callTool({ name: 'ask_me', arguments: {} })
    expect(declined.isError).toBe(true)
    expect(text(declined)).toContain('did not approve ask_me (decline)')
  })

  it('falls back to the configured approver without elicitation', async () => {
    const result = await (await open('native')).callTool({ name: 'ask_me', arguments: {} })
    expect(result.isError).toBe(true)
  })

  it('lists run_code alone with the SDK in its description in ptc mode, and runs programs', async () => {
    const client = await open('ptc')
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['run_code'])
    expect(tools[0]?.description).toContain('add')
    expect(tools[0]?.description).toContain('shout')
    const result = await client.callTool({
      name: 'run_code',
      arguments: {
        code: "const { sum } = await tools.add({ a: 20, b: 22 }); console.log(await tools.shout({ text: 'sum' }), sum)",
        description: 'add and shout',
      },
    })
    expect(result.isError).toBeUndefined()
    expect(text(result)).toContain('SUM 42')
  })
})

describe('serveMcp in both mode', () => {
  it('lists the tools and run_code together', async () => {
    const { tools } = await (await overHttp('both')).listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['add', 'ask_me', 'fail', 'shout', 'run_code'])
    expect(tools.find((tool) => tool.name === 'run_code')?.description).not.toContain('Call only `run_code` directly')
  })
})

describe('serveMcp in ptc mode', () => {
  it('asks the calling client about a sub-call of a program', async () => {
    const client = await overHttp('ptc', 'accept')
    const result = await client.callTool({
      name: 'run_code',
      arguments: { code: 'console.log(await tools.ask_me({}))', description: 'call the asking tool' },
    })
    expect(text(result)).toContain('approved and ran')
  })

  it('describes run_code byte-stably', async () => {
    const client = await overHttp('ptc')
    const { tools } = await client.listTools()
    expect(tools[0]?.description).toMatchSnapshot()
  })
})

describe('serveMcp keeps clients current', () => {
  it('tells a connected client when the served tools change, without the host calling toolsChanged', async () => {
    const runtime = createToolRuntime()
    const serving = await serveMcp(runtime, { transport: { http: { port: 0 } }, mode: 'native' })
    try {
      const client = newClient(undefined)
      let notified = 0
      let wake: () => void = () => {}
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        notified++
        wake()
      })
      await client.connect(
        new StreamableHTTPClientTransport(new URL(serving.url!), {
          requestInit: { headers: { authorization: `Bearer ${serving.token}` } },
        }),
      )
      const next = () => new Promise<void>((resolve) => (wake = resolve))
      const pause = (ms: number) => new Promise<false>((resolve) => setTimeout(() => resolve(false), ms))
      // The stream that carries notifications opens a little after connect: ping until one arrives, then let
      // the line go quiet so that no ping is counted below.
      for (let arrived = false; !arrived; ) {
        const pong = next().then(() => true)
        serving.toolsChanged()
        arrived = await Promise.race([pong, pause(100)])
      }
      await pause(100)
      notified = 0
      const first = next()
      const [tool] = fixtureTools()
      const registration = runtime.register(tool!)
      await first
      expect((await client.listTools()).tools.map((listed) => listed.name)).toEqual([tool!.name])
      const second = next()
      registration.dispose()
      await second
      expect((await client.listTools()).tools).toEqual([])
      expect(notified).toBe(2)
    } finally {
      await serving.close()
    }
  })
})

describe('our client meets our server', () => {
  it('words a served failure once and reads a structured value, over HTTP with the token', async () => {
    const serving = endpoints.native!
    const host = createToolRuntime()
    const connection = await connectMcpServer(host, {
      name: 'self',
      url: serving.url!,
      headers: { authorization: `Bearer ${serving.token}` },
    })
    try {
      const failed = await host.execute({ id: '1', name: 'self__fail', arguments: {} })
      expect(failed.content).toEqual([{ type: 'text', text: 'Error: this tool always fails' }])
      const added = await host.execute({ id: '2', name: 'self__add', arguments: { a: 1, b: 2 } })
      expect(expectSuccess(added).value).toEqual({ sum: 3 })
      expect(added.content).toEqual([{ type: 'text', text: '{"sum":3}' }])
    } finally {
      await connection.dispose()
    }
  })
})
