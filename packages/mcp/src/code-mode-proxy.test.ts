import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createNodePtcRuntime } from '@qilin-tools/code-mode-node'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectSuccess } from '../../../test/support/settled-result.js'
import { fixtureServer, memoryServer } from './__fixtures__/real-servers.js'
import { connectMcpServer } from './connect-mcp-server.js'
import { serveMcp } from './serve-mcp.js'

let directory: string
const cleanup: (() => Promise<unknown>)[] = []

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'qilin-mcp-proxy-'))
})

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
  rmSync(directory, { recursive: true, force: true })
})

const savedEntities = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"type":"entity"'))
    .map((line) => (JSON.parse(line) as { name: string }).name)
    .sort()

const program = `const names = Array.from({ length: 20 }, (_, index) => 'entity-' + String(index).padStart(2, '0'))
const created = await Promise.all(names.map((name) =>
  tools.memory__create_entities({ entities: [{ name, entityType: 'probe', observations: ['made by run_code'] }] })))
console.log(created.length + ' calls resolved')`

const expected = Array.from({ length: 20 }, (_, index) => `entity-${String(index).padStart(2, '0')}`)

describe('the code-mode proxy: upstream MCP servers in, one run_code out', () => {
  it('saves all 20 entities when a program overlaps 20 create_entities calls', async () => {
    const memoryFile = join(directory, 'memory.jsonl')
    const ptcRuntime = createNodePtcRuntime()
    const runtime = createToolRuntime({ ptcRuntime })
    const memory = await connectMcpServer(runtime, memoryServer(memoryFile))
    const serving = await serveMcp(runtime, { transport: { http: { port: 0 } }, mode: 'ptc' })
    const client = new Client({ name: 'downstream', version: '1.0.0' })
    cleanup.push(
      () => ptcRuntime.close(),
      () => memory.dispose(),
      () => serving.close(),
      () => client.close(),
    )
    await client.connect(
      new StreamableHTTPClientTransport(new URL(serving.url!), {
        requestInit: { headers: { authorization: `Bearer ${serving.token}` } },
      }),
    )

    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['run_code'])
    expect(tools[0]?.description).toContain('memory__create_entities')

    const result = (await client.callTool({
      name: 'run_code',
      arguments: { code: program, description: 'create 20 entities at once' },
    })) as CallToolResult
    expect(result.isError).toBeUndefined()
    expect(result.content).toContainEqual({ type: 'text', text: expect.stringContaining('20 calls resolved') })
    expect(savedEntities(memoryFile)).toEqual(expected)
  })

  it('reaches a served runtime from connectMcpServer over Streamable HTTP', async () => {
    const memoryFile = join(directory, 'memory.jsonl')
    const upstream = createToolRuntime()
    const memory = await connectMcpServer(upstream, memoryServer(memoryFile))
    const serving = await serveMcp(upstream, { transport: { http: { port: 0 } }, mode: 'native' })
    const downstream = createToolRuntime()
    const proxied = await connectMcpServer(downstream, {
      name: 'proxy',
      url: serving.url!,
      headers: { authorization: `Bearer ${serving.token}` },
    })
    cleanup.push(
      () => memory.dispose(),
      () => serving.close(),
      () => proxied.dispose(),
    )
    expect(proxied.tools).toContain('proxy__memory__create_entities')
    const created = await downstream.execute({
      id: 'call-1',
      name: 'proxy__memory__create_entities',
      arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: [] }] },
    })
    expect(created.ok).toBe(true)
    const graph = await downstream.execute({ id: 'call-2', name: 'proxy__memory__read_graph', arguments: {} })
    expect(expectSuccess(graph).value).toEqual({
      entities: [{ name: 'Ada', entityType: 'person', observations: [] }],
      relations: [],
    })
    expect(downstream.get('proxy__memory__read_graph')?.executionMode).toBe('parallel')
  })

  it('passes an upstream tool-list change through to downstream clients', async () => {
    const upstream = createToolRuntime()
    let serving: Awaited<ReturnType<typeof serveMcp>> | undefined
    const dynamic = await connectMcpServer(upstream, {
      ...fixtureServer('dynamic-server.ts', 'dyn'),
      onToolsChanged: () => serving?.toolsChanged(),
    })
    serving = await serveMcp(upstream, { transport: { http: { port: 0 } }, mode: 'native' })
    const downstream = createToolRuntime()
    const proxied = await connectMcpServer(downstream, {
      name: 'proxy',
      url: serving.url!,
      headers: { authorization: `Bearer ${serving.token}` },
    })
    cleanup.push(
      () => dynamic.dispose(),
      () => serving!.close(),
      () => proxied.dispose(),
    )
    expect(proxied.tools).not.toContain('proxy__dyn__gamma')
    const changed = await downstream.execute({
      id: 'call-1',
      name: 'proxy__dyn__control',
      arguments: { add: ['gamma'] },
    })
    expect(changed.ok).toBe(true)
    await dynamic.settled()
    await expect.poll(() => proxied.tools).toContain('proxy__dyn__gamma')
    const called = await downstream.execute({ id: 'call-2', name: 'proxy__dyn__gamma', arguments: {} })
    expect(expectSuccess(called).value).toBe('gamma {}')
  })

  it('serialises overlapping native calls to an exclusive MCP tool', async () => {
    const memoryFile = join(directory, 'memory.jsonl')
    const runtime = createToolRuntime()
    const memory = await connectMcpServer(runtime, memoryServer(memoryFile))
    cleanup.push(() => memory.dispose())
    const results = await runtime.executeAll(
      expected.map((name, index) => ({
        id: `call-${index}`,
        name: 'memory__create_entities',
        arguments: { entities: [{ name, entityType: 'probe', observations: [] }] },
      })),
    )
    expect(results.every((result) => result.ok)).toBe(true)
    expect(savedEntities(memoryFile)).toEqual(expected)
  })
})
