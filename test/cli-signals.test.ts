import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { descendantsOf, listProcesses } from '../src/cli/process-tree.js'
import { builtCli, createTempProject, ensureBuiltCli, type TempProject } from './support/built-cli.js'
import { hasSystemPart } from './support/system-requirement.js'

const require = createRequire(import.meta.url)
const memoryEntry = require.resolve('@modelcontextprotocol/server-memory/dist/index.js')
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const
type StopSignal = keyof typeof EXIT_CODES

let project: TempProject
const started: ChildProcessWithoutNullStreams[] = []
beforeAll(() => ensureBuiltCli(), 180_000)
beforeEach(() => {
  project = createTempProject({ 'a.txt': 'alpha\n' })
})
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  project.dispose()
})

interface CliExit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

/** Starts the built CLI with stdin left open (a server's client, a person at a terminal). */
function startCli(args: readonly string[]): {
  child: ChildProcessWithoutNullStreams
  exited: Promise<CliExit>
  stdout: () => string
} {
  const child = spawn(process.execPath, ['--no-node-snapshot', builtCli, ...args], {
    cwd: project.directory,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  started.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk
  })
  const exited = new Promise<CliExit>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  )
  return { child, exited, stdout: () => stdout }
}

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = probe()
    if (found !== undefined && found !== false) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
  } catch {
    return ''
  }
}

/** Running, as the process table shows it: a zombie only waits to be reaped and counts as gone. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat[stat.lastIndexOf(')') + 2] !== 'Z'
  } catch {
    return false
  }
}

/** Every running process whose command line contains `text` (the test's own sleep marker). */
function processesMatching(text: string): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && running(Number(name)) && commandLine(Number(name)).includes(text))
    .map((name) => `${name} ${commandLine(Number(name))}`)
}

/** Whether `sleep <seconds>` itself runs (the CLI's and bash's own command lines also hold the text). */
function sleepRuns(seconds: string): boolean {
  return processesMatching(`sleep ${seconds}`).some(
    (line) => line.endsWith(` sleep ${seconds}`) && !line.includes('-c'),
  )
}

/** Whether `pid` reads its stdin: fd 0 is in the interest list of one of its epoll instances. */
function readsStdin(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some(
      (fd) =>
        readlinkSync(`/proc/${pid}/fd/${fd}`) === 'anon_inode:[eventpoll]' &&
        /^tfd:\s+0\s/m.test(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8')),
    )
  } catch {
    return false
  }
}

/** The CLI's whole process tree as `pid args` lines, for the before-and-after check. */
function treeOf(pid: number): { readonly pid: number; readonly args: string }[] {
  return descendantsOf(pid, listProcesses()).map((entry) => ({ pid: entry.pid, args: commandLine(entry.pid) }))
}

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
        const { child, exited } = startCli(['run', 'program.ts'])
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
      const { child, exited } = startCli(['run', 'busy.py'])
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
      const { child, exited } = startCli(['call', 'bash', JSON.stringify({ command: `sleep ${seconds}` })])
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
    const { child, exited, stdout } = startCli(['serve'])
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
    const { child, exited, stdout } = startCli(['serve'])
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

  it('run -: SIGINT while the program is still being read from stdin exits 130 at once', async () => {
    project.write('qilin.config.json', '{}')
    const { child, exited } = startCli(['run', '-'])
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
    const { child, exited } = startCli(['sdk'])
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
    const { child, exited } = startCli(['run', 'program.ts'])
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

describe('Ctrl-C during a busy program', () => {
  it('exits 130 on every one of 50 interrupts in a row, never by a crash', async () => {
    project.write('qilin.config.json', JSON.stringify({ toolkit: true }))
    const runs = 50
    const atOnce = 3
    const outcomes: { readonly run: number; readonly code: number | null; readonly signal: string | null }[] = []
    const crashes: string[] = []
    const interruptOne = async (run: number) => {
      project.write(
        `busy-${run}.ts`,
        `await tools.write_file({ path: 'started-${run}', content: '' })\nwhile (true) {}`,
      )
      const { child, exited } = startCli(['run', `busy-${run}.ts`])
      await waitFor(`run ${run} to be busy`, () => existsSync(join(project.directory, `started-${run}`)))
      // Somewhere in the spin, not at a fixed phase of it.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 150))
      child.kill('SIGINT')
      // Every other run gets the signal twice at once, as `timeout`, `npm run` and `npx` deliver it.
      if (run % 2 === 1) child.kill('SIGINT')
      const exit = await exited
      outcomes.push({ run, code: exit.code, signal: exit.signal })
      if (/segmentation|core dumped|fatal error/i.test(exit.stderr)) crashes.push(`run ${run}: ${exit.stderr}`)
    }
    for (let first = 0; first < runs; first += atOnce) {
      const batch = Array.from({ length: Math.min(atOnce, runs - first) }, (_, offset) => first + offset)
      await Promise.all(batch.map(interruptOne))
    }
    expect(crashes).toEqual([])
    expect(outcomes.filter((outcome) => outcome.code !== 130)).toEqual([])
    expect(outcomes).toHaveLength(runs)
  }, 180_000)
})
