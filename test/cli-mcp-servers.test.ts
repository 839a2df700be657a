import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { builtCli, createTempProject, ensureBuiltCli, runBuiltCli, type TempProject } from './support/built-cli.js'

const START_TIMEOUT_MS = 1_500
const memoryEntry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js')
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href
const hostileCatalogServer = fileURLToPath(
  new URL('../packages/mcp/src/__fixtures__/hostile-catalog-server.ts', import.meta.url),
)

let project: TempProject
let client: Client | undefined
let marker: string
beforeAll(() => ensureBuiltCli(), 180_000)
beforeEach(() => {
  // Unique per test, so the process-table check finds this test's hanging servers and nobody else's.
  marker = `qilin-hang-${process.pid}-${Date.now()}`
  project = createTempProject({ 'a.txt': 'alpha\n' })
  project.write(
    'qilin.config.json',
    JSON.stringify({
      limits: { mcpStartTimeoutMs: START_TIMEOUT_MS },
      mcpServers: {
        missing: { command: 'qilin-no-such-binary' },
        hangs: { command: process.execPath, args: ['-e', `setInterval(() => {}, 1000) // ${marker}`] },
        chatters: {
          command: process.execPath,
          args: ['-e', `process.stdout.write('not json\\n'.repeat(50000)); setInterval(() => {}, 1000) // ${marker}`],
        },
        off: { command: 'qilin-disabled-binary', disabled: true },
        memory: {
          command: process.execPath,
          args: [memoryEntry],
          env: { MEMORY_FILE_PATH: `${project.directory}/memory.jsonl` },
        },
      },
    }),
  )
})
afterEach(async () => {
  await client?.close()
  client = undefined
  project.dispose()
})

/** The `qilin-tools: …` lines of stderr that say an `mcpServers` entry was left out, sorted. */
const skipped = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.includes('mcpServers.'))
    .sort()

function expectTheBadOnesSkipped(stderr: string): void {
  const lines = skipped(stderr)
  expect(lines).toHaveLength(3)
  expect(lines[0]).toMatch(
    new RegExp(
      `^qilin-tools: qilin\\.config\\.json: mcpServers\\.chatters skipped: did not start within ${START_TIMEOUT_MS} ms`,
    ),
  )
  expect(lines[1]).toMatch(
    new RegExp(
      `^qilin-tools: qilin\\.config\\.json: mcpServers\\.hangs skipped: did not start within ${START_TIMEOUT_MS} ms`,
    ),
  )
  expect(lines[2]).toMatch(/^qilin-tools: qilin\.config\.json: mcpServers\.missing skipped: .*ENOENT/)
  expect(stderr).not.toContain('mcpServers.off')
  expect(stderr).not.toContain('mcpServers.memory')
}

/** Processes whose command line carries this test's marker: the hanging servers, if anything left them running. */
function markedProcesses(): string[] {
  const found: string[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const commandLine = readFileSync(`/proc/${name}/cmdline`, 'utf8')
      if (commandLine.includes(marker)) found.push(`${name}: ${commandLine.replaceAll('\0', ' ')}`)
    } catch {
      // exited while we looked
    }
  }
  return found
}

describe('mcpServers with broken, hanging and disabled entries beside a working one', () => {
  it('serve (stdio) serves the working server and warns once per bad entry', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--no-node-snapshot', builtCli, 'serve'],
      cwd: project.directory,
      stderr: 'pipe',
    })
    let stderr = ''
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk
    })
    client = new Client({ name: 'qilin-tools-test', version: '1.0.0' })
    const started = Date.now()
    await client.connect(transport)
    // The bad entries are given up side by side, so start-up waits for one timeout, not one per server.
    expect(Date.now() - started).toBeLessThan(START_TIMEOUT_MS + 4_000)
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name)
    expect(names).toContain('memory__read_graph')
    expect(names).toContain('read_file')
    expect(names.some((name) => /^(missing|hangs|chatters|off)__/.test(name))).toBe(false)
    const graph = await client.callTool({ name: 'memory__read_graph', arguments: {} })
    expect(graph.isError).not.toBe(true)
    expectTheBadOnesSkipped(stderr)
    expect(markedProcesses()).toEqual([])
  }, 20_000)

  it('run runs a program against the working server', async () => {
    const program = "const graph = await tools.memory__read_graph({})\nreturn Object.keys(graph).sort().join(',')"
    const result = await runBuiltCli(['run', '-'], { cwd: project.directory, input: program })
    expect(result.stdout).toBe('entities,relations\n')
    expect(result.code).toBe(0)
    expectTheBadOnesSkipped(result.stderr)
    expect(markedProcesses()).toEqual([])
  }, 20_000)

  it('sdk shows the working server’s tools', async () => {
    const result = await runBuiltCli(['sdk', '--json'], { cwd: project.directory })
    expect(result.code).toBe(0)
    const native = (JSON.parse(result.stdout) as { modes: { mode: string; parts: { name: string }[] }[] }).modes.find(
      (view) => view.mode === 'native',
    )
    expect(native?.parts.map((part) => part.name)).toContain('memory__read_graph')
    expectTheBadOnesSkipped(result.stderr)
    expect(markedProcesses()).toEqual([])
  }, 20_000)

  it('starts nothing for a disabled entry and says nothing about it', async () => {
    project.write(
      'qilin.config.json',
      JSON.stringify({ mcpServers: { off: { command: 'qilin-disabled-binary', disabled: true } } }),
    )
    expect(await runBuiltCli(['call', 'file_info', '{"path":"a.txt"}'], { cwd: project.directory })).toMatchObject({
      code: 0,
      stderr: '',
    })
  }, 20_000)

  it('warns once per listed tool it could not register, naming why, and serves the server’s other tools', async () => {
    const server = { command: process.execPath, args: ['--import', tsxLoader, hostileCatalogServer, 'broken-tools'] }
    project.write('qilin.config.json', JSON.stringify({ mcpServers: { broken: server } }))
    const result = await runBuiltCli(['call', 'broken__echo', '{"text":"hi"}'], { cwd: project.directory })
    expect(result.stdout).toContain('echo: hi')
    expect(result.code).toBe(0)
    expect(result.stderr.split('\n').filter((line) => line.includes('left out'))).toEqual([
      expect.stringMatching(
        /^qilin-tools: MCP server "broken": tool dangling left out: .*does not resolve to a schema/,
      ),
      expect.stringMatching(/^qilin-tools: MCP server "broken": tool odd left out: .*unknown type "nonsense"/),
      expect.stringMatching(/^qilin-tools: MCP server "broken": tool w{79}… left out: Tool "broken__w+_[0-9a-f]{8}"/),
    ])
  }, 20_000)
})
