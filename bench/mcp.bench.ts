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
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import {
  everythingServer,
  filesystemServer,
  memoryServer,
} from '@qilin-tools/mcp/internal/__fixtures__/real-servers.js'
import { connectMcpServer } from '@qilin-tools/mcp/internal/connect-mcp-server.js'
import type { McpStdioServer } from '@qilin-tools/mcp/internal/mcp-connection-types.js'
import { mcpToolDefinition } from '@qilin-tools/mcp/internal/mcp-tool-definition.js'
import { mcpToolName } from '@qilin-tools/mcp/internal/tool-name.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { formatNs, markdownTable, measureSync, summarize } from './measure.js'

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

/**
 * Times each variant in batches, rotating which goes first in every round, so load from other processes on this
 * shared machine falls on all of them alike. Per-call medians.
 */
async function interleaved(variants: readonly (() => Promise<unknown>)[], rounds = 40, batch = 20) {
  const wall = variants.map(() => [] as number[])
  const cpu = variants.map(() => [] as number[])
  for (const variant of variants) for (let index = 0; index < batch * 3; index++) await variant()
  for (let round = 0; round < rounds; round++) {
    for (let offset = 0; offset < variants.length; offset++) {
      const which = (round + offset) % variants.length
      const start = process.hrtime.bigint()
      const usage = process.cpuUsage()
      for (let index = 0; index < batch; index++) await variants[which]!()
      const spent = process.cpuUsage(usage)
      wall[which]!.push(Number(process.hrtime.bigint() - start) / batch)
      cpu[which]!.push(((spent.user + spent.system) * 1000) / batch)
    }
  }
  return variants.map((_, index) => ({ wall: summarize(wall[index]!), cpu: summarize(cpu[index]!) }))
}

/** The SDK's Ajv warns about unknown formats while it compiles output validators; that is not what we measure. */
async function quietly<Value>(work: () => Promise<Value>): Promise<Value> {
  const warn = console.warn
  console.warn = () => {}
  try {
    return await work()
  } finally {
    console.warn = warn
  }
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
  await quietly(() => sdk.listTools())
  const exec = {
    signal: new AbortController().signal,
    callId: 'bench',
    toolName: name,
    agentId: undefined,
    correlationId: 'b',
    escalated: false,
  }
  let id = 0
  const variants = {
    sdk: () => sdk.callTool({ name: tool, arguments: args }),
    direct: () => definition.execute(Object.freeze({ ...args }), exec),
    pipeline: async () => {
      const result = await runtime.execute({ id: `b${++id}`, name, arguments: args })
      if (!result.ok) throw new Error(result.error.message)
    },
  }
  const [sdkCall, direct, pipeline] = await interleaved([variants.sdk, variants.direct, variants.pipeline])
  callRows.push([
    `${server.name} ${tool}`,
    formatNs(sdkCall!.wall.medianNs),
    formatNs(pipeline!.wall.medianNs),
    formatNs(sdkCall!.cpu.medianNs),
    formatNs(direct!.cpu.medianNs),
    formatNs(pipeline!.cpu.medianNs),
    formatNs(pipeline!.cpu.medianNs - sdkCall!.cpu.medianNs),
  ])
  await sdk.close()
  await connection.dispose()
}

// Connect to registered: interleaved rounds, alternating which side goes first.
const connectRows: (string | number)[][] = []
for (const server of servers) {
  const ours: number[] = []
  const bare: number[] = []
  let listed: Tool[] = []
  const connectOurs = async () => {
    const runtime = createToolRuntime()
    const start = process.hrtime.bigint()
    const connection = await connectMcpServer(runtime, server)
    ours.push(Number(process.hrtime.bigint() - start))
    await connection.dispose()
  }
  const connectBare = async () => {
    const start = process.hrtime.bigint()
    const client = await sdkClient(server)
    listed = (await quietly(() => client.listTools())).tools
    bare.push(Number(process.hrtime.bigint() - start))
    await client.close()
  }
  for (let round = 0; round < 11; round++) {
    if (round % 2 === 0) await connectOurs().then(connectBare)
    else await connectBare().then(connectOurs)
  }
  // The part that is ours alone: building and registering the definitions for the listed tools.
  const registration = measureSync(
    () => {
      const runtime = createToolRuntime()
      for (const tool of listed) {
        const name = mcpToolName(server.name, tool.name)
        runtime.register(mcpToolDefinition({ serverName: server.name, name, tool, call: () => Promise.reject() }))
      }
    },
    { batch: 10, samples: 30, warmup: 20 },
  )
  connectRows.push([
    server.name,
    listed.length,
    formatNs(summarize(bare).medianNs),
    formatNs(summarize(ours).medianNs),
    formatNs(registration.medianNs),
  ])
}

console.log(
  'Per call, medians of 40 interleaved rounds x 20 sequential calls (stdio, each side its own server process). Wall time\n' +
    'includes the server and this shared machine; CPU time of this process is the work the client side does.\n',
)
console.log(
  markdownTable(
    [
      'server tool',
      'wall: SDK callTool',
      'wall: runtime.execute',
      'CPU: SDK callTool',
      'CPU: our definition.execute',
      'CPU: runtime.execute',
      'CPU added on top of SDK',
    ],
    callRows,
  ),
)
console.log('\nConnect (spawn + initialize + every tools/list page), median of 11 interleaved rounds:\n')
console.log(
  markdownTable(
    ['server', 'tools', 'SDK connect + listTools', 'connectMcpServer to registered', 'of which define + register'],
    connectRows,
  ),
)
rmSync(directory, { recursive: true, force: true })
