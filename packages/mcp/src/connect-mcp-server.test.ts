import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JsonObject } from 'qilin-tools/internal/json-schema/json-value.js'
import type { ToolResult } from 'qilin-tools/internal/pipeline/call.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import type { ToolRuntime } from 'qilin-tools/internal/pipeline/tool-runtime.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../../test/support/settled-result.js'
import { everythingServer, filesystemServer, fixtureServer, memoryServer } from './__fixtures__/real-servers.js'
import { connectMcpServer } from './connect-mcp-server.js'
import type { McpConnection } from './mcp-connection-types.js'

let directory: string
let runtime: ToolRuntime
let connections: McpConnection[]
let callCount = 0

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'qilin-mcp-'))
  runtime = createToolRuntime()
  connections = []
})

afterEach(async () => {
  await Promise.all(connections.map((connection) => connection.dispose()))
  rmSync(directory, { recursive: true, force: true })
})

async function connect(options: Parameters<typeof connectMcpServer>[1]): Promise<McpConnection> {
  const connection = await connectMcpServer(runtime, options)
  connections.push(connection)
  return connection
}

function call(name: string, args: JsonObject = {}, signal?: AbortSignal): Promise<ToolResult> {
  callCount++
  return runtime.execute({ id: `call-${callCount}`, name, arguments: args }, signal === undefined ? {} : { signal })
}

describe('connectMcpServer with server-filesystem', () => {
  it('registers every tool namespaced, with the read-only ones parallel', async () => {
    const connection = await connect(filesystemServer(directory))
    expect(connection.tools).toHaveLength(14)
    expect(connection.tools).toContain('fs__read_text_file')
    expect(connection.status).toMatchObject({
      server: 'fs',
      state: 'connected',
      serverInfo: { name: 'secure-filesystem-server' },
    })
    expect(runtime.get('fs__read_text_file')?.executionMode).toBe('parallel')
    expect(runtime.get('fs__write_file')?.executionMode).toBe('exclusive')
    expect(runtime.get('fs__read_text_file')?.parameters).toHaveProperty('$schema')
  })

  it('calls tools and maps structured content to the value', async () => {
    await connect(filesystemServer(directory))
    const path = join(directory, 'note.txt')
    const written = await call('fs__write_file', { path, content: 'first line\nsecond line' })
    expect(written.ok).toBe(true)
    expect(readFileSync(path, 'utf8')).toBe('first line\nsecond line')
    const read = await call('fs__read_text_file', { path, head: 1 })
    expect(expectSuccess(read).value).toEqual({ content: 'first line' })
    expect(read.content).toEqual([{ type: 'text', text: 'first line' }])
  })

  it('turns an isError result into TOOL_ERROR with the server text', async () => {
    await connect(filesystemServer(directory))
    const result = await call('fs__read_text_file', { path: '/etc/hostname' })
    expect(result.ok).toBe(false)
    expect(expectFailure(result).error.code).toBe('TOOL_ERROR')
    expect(expectFailure(result).error.message).toContain('Access denied - path outside allowed directories')
  })

  it('unregisters everything on dispose', async () => {
    const connection = await connect(filesystemServer(directory))
    await connection.dispose()
    expect(runtime.schemas()).toEqual([])
    expect(connection.status.state).toBe('closed')
  })

  it('applies the tool filter and prefix policy', async () => {
    const connection = await connect({
      ...filesystemServer(directory),
      filter: { allow: ['read_text_file'] },
      prefix: false,
    })
    expect(connection.tools).toEqual(['read_text_file'])
  })

  it('rejects a name collision instead of renaming, and leaves nothing behind', async () => {
    await connect(filesystemServer(directory))
    await expect(connect(filesystemServer(directory))).rejects.toThrow('fs__read_file')
    expect(runtime.schemas()).toHaveLength(14)
  })
})

describe('connectMcpServer with server-memory', () => {
  it('creates entities and reads the graph back', async () => {
    const file = join(directory, 'memory.jsonl')
    await connect(memoryServer(file))
    const created = await call('memory__create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    })
    expect(created.ok).toBe(true)
    const graph = await call('memory__read_graph')
    expect(expectSuccess(graph).value).toEqual({
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
      relations: [],
    })
    expect(readFileSync(file, 'utf8')).toContain('"Ada"')
  })
})

describe('connectMcpServer with server-everything', () => {
  it('passes images through as images', async () => {
    await connect(everythingServer())
    const result = await call('everything__get-tiny-image')
    expect(result.ok).toBe(true)
    expect(result.content.map((part) => part.type)).toContain('image')
    const image = result.content.find((part) => part.type === 'image')
    expect(image).toMatchObject({ mimeType: 'image/png' })
  })

  it('registers the tools the server adds after initialize when the client declares its capabilities', async () => {
    const connection = await connect({
      ...everythingServer(),
      capabilities: { roots: {}, sampling: {}, elicitation: { form: {}, url: {} } },
    })
    await connection.settled()
    expect(connection.tools).toEqual(
      expect.arrayContaining(['everything__get-roots-list', 'everything__trigger-sampling-request']),
    )
    expect(connection.status.syncs).toBeGreaterThanOrEqual(2)
    const plain = await connect({ ...everythingServer('plain') })
    expect(plain.tools).not.toContain('plain__get-roots-list')
    expect(connection.tools.length - plain.tools.length).toBe(4)
  })

  it('cancels an in-flight call when the signal aborts and stays usable', async () => {
    const connection = await connect(everythingServer())
    const controller = new AbortController()
    const pending = call('everything__trigger-long-running-operation', { duration: 30, steps: 30 }, controller.signal)
    setTimeout(() => controller.abort(), 200)
    const result = await pending
    expect(result.ok).toBe(false)
    expect(expectFailure(result).error.message).toContain('cancelled')
    expect(connection.status.state).toBe('connected')
    expect((await call('everything__get-sum', { a: 2, b: 3 })).ok).toBe(true)
  })
})

describe('connectMcpServer with a server whose tool list changes', () => {
  const dynamic = () => fixtureServer('dynamic-server.ts', 'dyn')

  it('lists every page', async () => {
    const connection = await connect(dynamic())
    expect(connection.tools).toEqual(['dyn__control', 'dyn__hang', 'dyn__count', 'dyn__alpha', 'dyn__beta'])
  })

  it('re-syncs on list_changed: added, removed and changed tools', async () => {
    const connection = await connect(dynamic())
    const before = runtime.get('dyn__alpha')
    await call('dyn__control', { add: ['gamma'], remove: ['beta'], redescribe: 'alpha' })
    await connection.settled()
    expect(connection.tools).toEqual(['dyn__control', 'dyn__hang', 'dyn__count', 'dyn__alpha', 'dyn__gamma'])
    const after = runtime.get('dyn__alpha')
    expect(after).not.toBe(before)
    expect(after?.description).toBe('Redescribed.')
    expect(after?.parameters).toEqual({ type: 'object', properties: { text: { type: 'string' } } })
    expect(expectSuccess(await call('dyn__gamma', { x: 1 })).value).toBe('gamma {"x":1}')
    expect(expectFailure(await call('dyn__beta')).error.code).toBe('UNKNOWN_TOOL')
  })

  it('tells the host when a re-sync changed the tools', async () => {
    const changes: (readonly string[])[] = []
    const connection = await connect({ ...dynamic(), onToolsChanged: (tools) => changes.push(tools) })
    expect(changes).toEqual([])
    await call('dyn__control', { add: ['delta'] })
    await connection.settled()
    expect(changes).toEqual([['dyn__control', 'dyn__hang', 'dyn__count', 'dyn__alpha', 'dyn__beta', 'dyn__delta']])
  })

  it('reports a collision found while re-syncing', async () => {
    const connection = await connect(dynamic())
    await call('dyn__control', { add: ['x.y', 'x_y'] })
    await connection.settled()
    expect(connection.status.error).toContain('tools "x.y" and "x_y" both map to the name "dyn__x_y"')
  })

  it('a list_changed sent before the initialize answer neither loses the first listing nor stalls settled()', async () => {
    const connection = await connect(fixtureServer('early-notice-server.ts', 'early'))
    expect(connection.tools).toEqual(['early__echo'])
    await connection.settled()
    expect(expectSuccess(await call('early__echo')).value).toBe('echoed')
  })

  it('fails in-flight and later calls when the server crashes, then recovers on reconnect', async () => {
    const connection = await connect(dynamic())
    const pid = connection.status.pid
    expect(pid).toBeTypeOf('number')
    const inFlight = call('dyn__hang')
    await new Promise((resolve) => setTimeout(resolve, 100))
    process.kill(pid!, 'SIGKILL')
    const crashed = await inFlight
    expect(expectFailure(crashed).error).toEqual({
      code: 'TOOL_ERROR',
      message: 'MCP server "dyn" closed the connection during the call',
    })
    expect(connection.status).toMatchObject({ state: 'failed', error: 'the server closed the connection' })
    const later = await call('dyn__count')
    expect(expectFailure(later).error).toEqual({
      code: 'TOOL_ERROR',
      message: 'MCP server "dyn" is unavailable: the server closed the connection',
    })
    expect(connection.tools).toContain('dyn__count')

    const status = await connection.reconnect()
    expect(status.state).toBe('connected')
    expect(status.pid).not.toBe(pid)
    expect(expectSuccess(await call('dyn__count')).value).toBe('1')
  })

  it('marks a hung server failed after a call times out and a ping goes unanswered', async () => {
    const connection = await connect({ ...dynamic(), requestTimeoutMs: 400, pingTimeoutMs: 200 })
    const pid = connection.status.pid!
    process.kill(pid, 'SIGSTOP')
    try {
      const result = await call('dyn__count')
      expect(expectFailure(result).error.code).toBe('TOOL_ERROR')
      expect(expectFailure(result).error.message).toMatch(/^MCP server "dyn" did not answer in time/)
      expect(connection.status.state).toBe('failed')
      expect(connection.status.error).toContain('did not answer a ping within 200 ms')
    } finally {
      process.kill(pid, 'SIGCONT')
    }
    expect((await connection.reconnect()).state).toBe('connected')
  })

  it('gives up a start when its signal aborts, and kills the server at once', async () => {
    const hanging = { name: 'hangs', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }
    let pid: number | undefined
    const started = Date.now()
    await expect(
      connect({
        ...hanging,
        signal: AbortSignal.timeout(300),
        onStatus: (status) => {
          pid ??= status.pid
        },
      }),
    ).rejects.toThrow(/MCP server "hangs" failed to start/)
    // Killed, not asked: a polite close would wait a second for the server to leave on end of stdin.
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(runtime.schemas()).toEqual([])
    expect(pid).toEqual(expect.any(Number))
    expect(() => process.kill(pid ?? 0, 0)).toThrow(/ESRCH/)
  })

  it('says why a server failed to start', async () => {
    await expect(
      connect({
        name: 'broken',
        command: process.execPath,
        args: ['-e', 'console.error("no config"); process.exit(3)'],
      }),
    ).rejects.toThrow(/MCP server "broken" failed to start: .*\nno config/s)
  })
})

describe('connectMcpServer with autoReconnect', () => {
  it('restarts a crashed server with backoff and serves calls again', async () => {
    const states: string[] = []
    const connection = await connect({
      ...fixtureServer('dynamic-server.ts', 'auto'),
      autoReconnect: { attempts: 3, initialDelayMs: 50 },
      onStatus: (status) => states.push(status.state),
    })
    const pid = connection.status.pid!
    process.kill(pid, 'SIGKILL')
    await expect
      .poll(() => connection.status.pid !== pid && connection.status.state, { timeout: 15_000 })
      .toBe('connected')
    expect(states).toEqual(['connecting', 'connected', 'failed', 'connecting', 'connected'])
    expect(expectSuccess(await call('auto__count')).value).toBe('1')
  })
})
