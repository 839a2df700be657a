/**
 * MCP client costs: per call, what `connectMcpServer` + the pipeline add on top of the SDK's own `callTool` against the
 * same server and tool (each side has its own server process); per server, the time from `connectMcpServer` to every
 * tool registered, next to a bare SDK connect + `listTools`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { everythingServer, filesystemServer, memoryServer } from '../src/mcp/__fixtures__/real-servers.js'
import { connectMcpServer } from '../src/mcp/connect-mcp-server.js'
import type { McpStdioServer } from '../src/mcp/mcp-connection-types.js'
import { createToolRuntime } from '../src/pipeline/create-tool-runtime.js'
import { formatNs, markdownTable, measureAsync, summarize } from './measure.js'

const directory = mkdtempSync(join(tmpdir(), 'qilin-mcp-bench-'))
writeFileSync(join(directory, 'a.txt'), 'hello')
const servers: McpStdioServer[] = [
  filesystemServer(directory),
  memoryServer(join(directory, 'memory.jsonl')),
  everythingServer(),
]

async function sdkClient(server: McpStdioServer): Promise<Client> {
  const client = new Client({ name: 'bench', version: '0' })
  await client.connect(
    new StdioClientTransport({
      command: server.command,
      args: [...(server.args ?? [])],
      ...(server.env === undefined ? {} : { env: { ...server.env } }),
      stderr: 'ignore',
    }),
  )
  return client
}

// Per-call overhead.
const cases = [
  { server: servers[2]!, tool: 'echo', args: { message: 'hello' } },
  { server: servers[0]!, tool: 'list_allowed_directories', args: {} },
  { server: servers[1]!, tool: 'read_graph', args: {} },
]
const callRows: string[][] = []
for (const { server, tool, args } of cases) {
  const runtime = createToolRuntime()
  const connection = await connectMcpServer(runtime, server)
  const name = `${server.name}__${tool}`
  const definition = runtime.get(name)!
  const sdk = await sdkClient(server)
  await sdk.listTools()
  const exec = {
    signal: new AbortController().signal,
    callId: 'bench',
    toolName: name,
    agentId: undefined,
    correlationId: 'b',
  }
  let id = 0
  const options = { batch: 50, samples: 20, warmup: 100 }
  const sdkCall = await measureAsync(() => sdk.callTool({ name: tool, arguments: args }), options)
  const direct = await measureAsync(() => definition.execute(Object.freeze({ ...args }), exec), options)
  const pipeline = await measureAsync(async () => {
    const result = await runtime.execute({ id: `b${++id}`, name, arguments: args })
    if (!result.ok) throw new Error(result.error?.message)
  }, options)
  callRows.push([
    `${server.name} ${tool}`,
    formatNs(sdkCall.medianNs),
    formatNs(direct.medianNs),
    formatNs(pipeline.medianNs),
    formatNs(pipeline.medianNs - sdkCall.medianNs),
  ])
  await sdk.close()
  await connection.dispose()
}

// Connect to registered.
const connectRows: (string | number)[][] = []
for (const server of servers) {
  const ours: number[] = []
  const bare: number[] = []
  let tools = 0
  for (let round = 0; round < 7; round++) {
    const runtime = createToolRuntime()
    let start = process.hrtime.bigint()
    const connection = await connectMcpServer(runtime, server)
    ours.push(Number(process.hrtime.bigint() - start))
    tools = connection.tools.length
    await connection.dispose()
    start = process.hrtime.bigint()
    const client = await sdkClient(server)
    await client.listTools()
    bare.push(Number(process.hrtime.bigint() - start))
    await client.close()
  }
  connectRows.push([server.name, tools, formatNs(summarize(bare).medianNs), formatNs(summarize(ours).medianNs)])
}

console.log('Per call (median of 20 samples x 50 sequential calls; stdio, each side its own server process):\n')
console.log(
  markdownTable(
    ['server tool', 'SDK callTool', 'our definition.execute', 'runtime.execute (pipeline)', 'added on top of SDK'],
    callRows,
  ),
)
console.log('\nConnect (spawn + initialize + every tools/list page), median of 7:\n')
console.log(
  markdownTable(['server', 'tools', 'SDK connect + listTools', 'connectMcpServer to registered'], connectRows),
)
rmSync(directory, { recursive: true, force: true })
