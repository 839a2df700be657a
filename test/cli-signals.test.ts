import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTempProject, ensureBuiltCli, type TempProject } from './support/built-cli.js'
import {
  commandLine,
  processesMatching,
  readsStdin,
  running,
  sleepRuns,
  treeOf,
  waitFor,
} from './support/process-table.js'
import { killStartedClis, startCli } from './support/running-cli.js'
import { hasSystemPart } from './support/system-requirement.js'

const require = createRequire(import.meta.url)
const memoryEntry = require.resolve('@modelcontextprotocol/server-memory/dist/index.js')
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const
type StopSignal = keyof typeof EXIT_CODES

let project: TempProject
beforeAll(() => ensureBuiltCli(), 180_000)
beforeEach(() => {
  project = createTempProject({ 'a.txt': 'alpha\n' })
})
afterEach(() => {
  killStartedClis()
  project.dispose()
})

async function expectAllGone(pids: readonly number[], marker?: string): Promise<void> {
  const marked = () => (marker === undefined ? [] : processesMatching(marker))
  // Killed processes leave the table a moment after the signal; a second is plenty.
  const left = await waitFor(
    'the process table to be clean',
    () => {
      const alive = pids.filter(running)
      return alive.length === 0 && marked().length === 0 ? ['clean'] : undefined
    },
    3_000,
  ).catch(() => [...pids.filter(running).map((pid) => `${pid} ${commandLine(pid)}`), ...marked()])
  expect(left).toEqual(['clean'])
}

const uniqueSeconds = () => String(100_000 + Math.floor(Math.random() * 800_000))

function writeConfig(extra: Record<string, unknown> = {}): void {
  project.write(
    'qilin.config.json',
    JSON.stringify({
      approve: { bash: 'allow' },
      mcpServers: {
        memory: {
          command: process.execPath,
          args: [memoryEntry],
          env: { MEMORY_FILE_PATH: `${project.directory}/m.jsonl` },
        },
      },
      ...extra,
    }),
  )
}

describe.skipIf(!hasSystemPart('bubblewrap', 'CLI stop signals with bash'))(
  'a stop signal leaves no process behind',
  () => {
    it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
      'run: %s cancels bash sleep, closes the MCP server and exits with 128 + the signal',
      async (signal: StopSignal) => {
        writeConfig()
        const seconds = uniqueSeconds()
        project.write('program.ts', `await tools.bash({ command: 'sleep ${seconds}' })\nreturn 'not reached'`)
        const { child, exited } = startCli(['run', 'program.ts'], project.directory)
        const pid = child.pid ?? 0
        await waitFor('bash to run sleep', () => sleepRuns(seconds))
        const tree = treeOf(pid)
        expect(tree.some((entry) => entry.args.includes('server-memory'))).toBe(true)
        child.kill(signal)
        const exit = await exited
        expect({ code: exit.code, signal: exit.signal }).toEqual({ code: EXIT_CODES[signal], signal: null })
        expect(exit.stdout).not.toContain('not reached')
        expect(exit.stderr).not.toContain('killing what is left')
        await expectAllGone([pid, ...tree.map((entry) => entry.pid)], `sleep ${seconds}`)
      },
      30_000,
    )

    it('run (Python): SIGTERM kills the runner and exits 143', async () => {
      writeConfig()
      project.write('busy.py', "await tools.write_file(path='started', content='')\nwhile True:\n    pass\n")
      const { child, exited } = startCli(['run', 'busy.py'], project.directory)
      const pid = child.pid ?? 0
      await waitFor('the program to start', () => existsSync(join(project.directory, 'started')))
      const tree = treeOf(pid)
      expect(tree.some((entry) => entry.args.includes('python3'))).toBe(true)
      child.kill('SIGTERM')
      expect((await exited).code).toBe(143)
      await expectAllGone([pid, ...tree.map((entry) => entry.pid)])
    }, 30_000)

    it('call: SIGHUP cancels a bash call and exits 129', async () => {
      writeConfig()
      const seconds = uniqueSeconds()
      const { child, exited } = startCli(
        ['call', 'bash', JSON.stringify({ command: `sleep ${seconds}` })],
        project.directory,
      )
      const pid = child.pid ?? 0
      await waitFor('bash to run sleep', () => sleepRuns(seconds))
      const tree = treeOf(pid)
      child.kill('SIGHUP')
      expect((await exited).code).toBe(129)
      await expectAllGone([pid, ...tree.map((entry) => entry.pid)], `sleep ${seconds}`)
    }, 30_000)
  },
)

describe('stop signals without bubblewrap', () => {
  it('serve (stdio): SIGTERM closes the MCP servers and exits 143', async () => {
    writeConfig()
    const { child, exited, stdout } = startCli(['serve'], project.directory)
    const pid = child.pid ?? 0
    const tree = await waitFor('the MCP server to start', () => {
      const found = treeOf(pid)
      return found.some((entry) => entry.args.includes('server-memory')) ? found : undefined
    })
    // Started and listed: a request answered means the servers are connected.
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    )
    await waitFor('initialize to be answered', () => stdout().includes('"id":1'))
    child.kill('SIGTERM')
    const exit = await exited
    expect(exit.code).toBe(143)
    expect(exit.stderr).toBe('')
    await expectAllGone([pid, ...tree.map((entry) => entry.pid)])
  }, 30_000)

  it('serve (stdio): SIGINT cancels a bash call in flight, unsandboxed, and exits 130', async () => {
    writeConfig({ bash: { sandbox: 'none' } })
    const seconds = uniqueSeconds()
    const { child, exited, stdout } = startCli(['serve'], project.directory)
    const pid = child.pid ?? 0
    const send = (message: Record<string, unknown>) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    })
    await waitFor('initialize to be answered', () => stdout().includes('"id":1'))
    send({ method: 'notifications/initialized' })
    send({ id: 2, method: 'tools/call', params: { name: 'bash', arguments: { command: `sleep ${seconds}` } } })
    await waitFor('bash to run sleep', () => sleepRuns(seconds))
    const tree = treeOf(pid)
    child.kill('SIGINT')
    expect((await exited).code).toBe(130)
    await expectAllGone([pid, ...tree.map((entry) => entry.pid)], `sleep ${seconds}`)
  }, 30_000)

  it('SIGHUP after the terminal went away (nobody reads stdout or stderr) still closes and exits 129', async () => {
    writeConfig({ bash: { sandbox: 'none' } })
    const seconds = uniqueSeconds()
    project.write('program.ts', `await tools.bash({ command: 'sleep ${seconds}' })`)
    const { child, exited } = startCli(['run', 'program.ts'], project.directory)
    const pid = child.pid ?? 0
    await waitFor('bash to run sleep', () => sleepRuns(seconds))
    const tree = treeOf(pid)
    child.stdout.destroy()
    child.stderr.destroy()
    child.kill('SIGHUP')
    expect((await exited).code).toBe(129)
    await expectAllGone([pid, ...tree.map((entry) => entry.pid)], `sleep ${seconds}`)
  }, 30_000)

  it('run -: SIGINT while the program is still being read from stdin exits 130 at once', async () => {
    project.write('qilin.config.json', '{}')
    const { child, exited } = startCli(['run', '-'], project.directory)
    child.stdin.write("console.log('never run')\n")
    await waitFor('the CLI to be listening', () => readsStdin(child.pid ?? 0))
    const stoppedAt = Date.now()
    child.kill('SIGINT')
    const exit = await exited
    expect(exit.code).toBe(130)
    expect(Date.now() - stoppedAt).toBeLessThan(3_000)
    expect(exit.stderr).toBe('qilin-tools: run: stopped while reading the program from stdin\n')
    expect(exit.stdout).toBe('')
  }, 30_000)

  it('sdk: SIGTERM gives up an MCP server still starting, without waiting for its start-up timeout', async () => {
    const marker = `qilin-starting-${uniqueSeconds()}`
    project.write(
      'qilin.config.json',
      JSON.stringify({
        mcpServers: { hangs: { command: process.execPath, args: ['-e', `setInterval(() => {}, 1000) // ${marker}`] } },
      }),
    )
    const { child, exited } = startCli(['sdk'], project.directory)
    await waitFor('the server to be starting', () => processesMatching(marker).length > 0)
    const stoppedAt = Date.now()
    child.kill('SIGTERM')
    const exit = await exited
    expect(exit.code).toBe(143)
    expect(Date.now() - stoppedAt).toBeLessThan(3_000)
    expect(exit.stderr).not.toContain('skipped')
    await expectAllGone([child.pid ?? 0], marker)
  }, 30_000)

  it('a second stop signal while closing forces the exit and kills what is left', async () => {
    const stubborn = project.write(
      'stubborn-server.mjs',
      [
        `import { McpServer } from ${JSON.stringify(require.resolve('@modelcontextprotocol/sdk/server/mcp.js'))}`,
        `import { StdioServerTransport } from ${JSON.stringify(require.resolve('@modelcontextprotocol/sdk/server/stdio.js'))}`,
        "process.on('SIGTERM', () => {})",
        'setInterval(() => {}, 1000)',
        "const server = new McpServer({ name: 'stubborn', version: '1.0.0' })",
        "server.registerTool('noop', { description: 'does nothing' }, () => ({ content: [] }))",
        'await server.connect(new StdioServerTransport())',
      ].join('\n'),
    )
    project.write(
      'qilin.config.json',
      JSON.stringify({ mcpServers: { stubborn: { command: process.execPath, args: [stubborn] } } }),
    )
    const seconds = uniqueSeconds()
    project.write(
      'program.ts',
      `await tools.write_file({ path: 'started', content: '' })\nwhile (true) {} // ${seconds}`,
    )
    const { child, exited } = startCli(['run', 'program.ts'], project.directory)
    const pid = child.pid ?? 0
    await waitFor('the program to start', () => existsSync(join(project.directory, 'started')))
    const tree = treeOf(pid)
    expect(tree.some((entry) => entry.args.includes('stubborn-server.mjs'))).toBe(true)
    child.kill('SIGINT')
    // Past the window in which a repeat counts as the same delivery; the stubborn server is still being closed.
    await new Promise((resolve) => setTimeout(resolve, 800))
    child.kill('SIGINT')
    const exit = await exited
    // Forced, the CLI dies by the signal itself (a shell shows 130), so no exit handler can crash on the way out.
    expect(exit.signal).toBe('SIGINT')
    expect(exit.stderr).toContain('a second stop signal (SIGINT) arrived while closing; killing what is left')
    await expectAllGone([pid, ...tree.map((entry) => entry.pid)], 'stubborn-server.mjs')
  }, 30_000)
})
