import { spawn, spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import {
  approvingBrowser,
  type OAuthFixture,
  startOAuthFixture,
} from '@qilin-tools/mcp/internal/__fixtures__/oauth-servers.js'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  builtCli,
  createTempProject,
  ensureBuiltCli,
  repositoryRoot,
  runBuiltCli,
  type TempProject,
} from './support/built-cli.js'

const interactiveServer = join(repositoryRoot, 'packages', 'mcp', 'src', '__fixtures__', 'interactive-server.ts')
const everythingEntry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')
const interactive = { command: process.execPath, args: ['--import', 'tsx', interactiveServer], cwd: repositoryRoot }
const everything = { command: process.execPath, args: [everythingEntry, 'stdio'] }

let project: TempProject
let client: Client | undefined
const cleanup: (() => unknown)[] = []
beforeAll(() => ensureBuiltCli(), 180_000)
beforeEach(() => {
  project = createTempProject()
})
afterEach(async () => {
  await client?.close()
  client = undefined
  for (const step of cleanup.splice(0).reverse()) await step()
  project.dispose()
})

function configure(config: Record<string, unknown>): void {
  project.write('qilin.config.json', JSON.stringify({ toolkit: false, ...config }))
}

/** `serve` over stdio, with an MCP client that declares `capabilities` (and answers what it declared). */
async function serveTo(capabilities: ClientCapabilities): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--no-node-snapshot', builtCli, 'serve'],
    cwd: project.directory,
    stderr: 'pipe',
  })
  client = new Client({ name: 'qilin-tools-test', version: '1.0.0' }, { capabilities })
  if (capabilities.sampling !== undefined) {
    client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: request.params.messages.length > 0 ? 'forty-two' : 'asked nothing' },
    }))
  }
  if (capabilities.elicitation !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }))
  }
  await client.connect(transport)
  return client
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text?: string }[]).map((part) => part.text ?? part.type).join('')

describe('serve passes an upstream server’s sampling and elicitation through to its own client', () => {
  it('answers sampling and elicitation from the client that made the call', async () => {
    configure({ mcpServers: { interactive } })
    const served = await serveTo({ sampling: {}, elicitation: {} })
    expect(textOf(await served.callTool({ name: 'interactive__sample', arguments: {} }))).toBe('sampled: forty-two')
    // The form's default fills the field the answer left out.
    expect(textOf(await served.callTool({ name: 'interactive__ask', arguments: {} }))).toBe(
      'answer: accept {"name":"Ada","color":"teal"}',
    )
  }, 30_000)

  it('refuses them with the reason when the calling client declared neither', async () => {
    configure({ mcpServers: { interactive } })
    const served = await serveTo({})
    expect(textOf(await served.callTool({ name: 'interactive__sample', arguments: {} }))).toMatch(
      /^sampling failed: .*sampling/,
    )
    expect(textOf(await served.callTool({ name: 'interactive__ask', arguments: {} }))).toMatch(
      /^elicitation failed: .*elicitation/,
    )
  }, 30_000)

  it('declares both to server-everything, which then offers its sampling and elicitation tools', async () => {
    configure({ mcpServers: { everything } })
    const served = await serveTo({ sampling: {} })
    const names = (await served.listTools()).tools.map((tool) => tool.name)
    expect(names).toContain('everything__trigger-sampling-request')
    expect(names).toContain('everything__trigger-elicitation-request')
    const sampled = await served.callTool({
      name: 'everything__trigger-sampling-request',
      arguments: { prompt: 'six times seven', maxTokens: 5 },
    })
    expect(textOf(sampled)).toContain('forty-two')
  }, 30_000)
})

// util-linux `script` gives the CLI a terminal, where the status line is drawn.
const hasScript = spawnSync('script', ['--version']).status === 0

describe('run shows what an upstream MCP tool reports while it runs', () => {
  it.skipIf(!hasScript)(
    'shows its progress beside its name in the status line on a terminal',
    () => {
      configure({ mcpServers: { everything } })
      project.write(
        'program.ts',
        "const done = await tools['everything__trigger-long-running-operation']({ duration: 2, steps: 4 })\nreturn 'finished'",
      )
      const command = `${process.execPath} --no-node-snapshot ${builtCli} run program.ts`
      const screen = spawnSync('script', ['-qec', command, '/dev/null'], {
        cwd: project.directory,
        encoding: 'utf8',
        timeout: 60_000,
      }).stdout
      expect(screen).toMatch(/running everything__trigger-long-running-operation \d+\.\d s [123]\/4/)
      expect(screen).toMatch(/finished\r?\n/)
    },
    60_000,
  )

  it('prints its server’s log messages on stderr, from info up, one line each', async () => {
    configure({ mcpServers: { interactive } })
    const result = await runBuiltCli(['run', '-'], {
      cwd: project.directory,
      input: 'return await tools.interactive__log_twice({})',
    })
    expect(result.stdout).toBe('logged\n')
    expect(result.stderr).toBe('qilin-tools: [interactive] info: first line\n')
    expect(result.code).toBe(0)
  }, 30_000)
})

/** A loopback port free a moment ago. */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/** Runs the built CLI, handing each stderr line to `onLine` as it arrives (a person reading the terminal). */
function runWatchingStderr(args: readonly string[], input: string, onLine: (line: string) => void) {
  const child = spawn(process.execPath, ['--no-node-snapshot', builtCli, ...args], {
    cwd: project.directory,
    env: { ...process.env, XDG_CONFIG_HOME: join(project.directory, 'xdg') },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  cleanup.push(() => child.kill('SIGKILL'))
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk: Buffer) => {
    const before = stderr
    stderr += chunk
    for (const line of stderr.split('\n').slice(before.split('\n').length - 1, -1)) onLine(line)
  })
  child.stdin.end(input)
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  )
}

describe('a remote MCP server behind OAuth, from the config’s oauth entry', () => {
  let server: OAuthFixture
  beforeEach(async () => {
    server = await startOAuthFixture()
    cleanup.push(() => server.stop())
  })

  it('prints the authorization URL, completes the flow on the loopback redirect, keeps the tokens 0600 and reuses them', async () => {
    const redirectPort = await freePort()
    configure({
      mcpServers: {
        remote: { url: server.mcpUrl, oauth: { tokenDirectory: './tokens', clientName: 'Release bot', redirectPort } },
      },
    })
    const opened: URL[] = []
    const browser = approvingBrowser(opened)
    const program = 'return await tools.remote__echo({})'
    const first = await runWatchingStderr(['run', '-'], program, (line) => {
      const url = /^qilin-tools: mcpServers\.remote needs authorization: open (\S+)$/.exec(line)?.[1]
      if (url !== undefined) void browser(new URL(url))
    })
    expect(first.stdout).toBe('echoed\n')
    expect(first.code).toBe(0)
    expect(opened).toHaveLength(1)
    expect(opened[0]?.searchParams.get('code_challenge_method')).toBe('S256')
    expect(server.registrations).toHaveLength(1)
    expect(server.registrations[0]).toMatchObject({
      client_name: 'Release bot',
      redirect_uris: [`http://127.0.0.1:${redirectPort}/callback`],
    })
    const files = readdirSync(join(project.directory, 'tokens'))
    expect(files).toHaveLength(1)
    expect(statSync(join(project.directory, 'tokens', files[0] as string)).mode & 0o777).toBe(0o600)

    const second = await runWatchingStderr(['run', '-'], program, () => {
      throw new Error('the stored tokens should have been used')
    })
    expect(second).toEqual({ code: 0, stdout: 'echoed\n', stderr: '' })
    expect(server.registrations).toHaveLength(1)
  }, 60_000)

  it('leaves the server out with one line when nobody authorizes in time', async () => {
    configure({
      limits: { mcpStartTimeoutMs: 5_000 },
      mcpServers: { remote: { url: server.mcpUrl, oauth: { authorizationTimeoutMs: 1_000 } } },
    })
    const result = await runWatchingStderr(['run', '-'], "return 'without it'", () => {})
    expect(result.stdout).toBe('without it\n')
    const lines = result.stderr.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^qilin-tools: mcpServers\.remote needs authorization: open http:\/\/127\.0\.0\.1:\d+\//)
    expect(lines[1]).toMatch(
      /^qilin-tools: qilin\.config\.json: mcpServers\.remote skipped: .*nobody completed the OAuth authorization in the browser within 1000 ms/,
    )
    // Without tokenDirectory the store is the user's config directory: the dynamic registration was kept there.
    expect(readdirSync(join(project.directory, 'xdg', 'qilin-tools', 'oauth'))).toHaveLength(1)
  }, 30_000)
})
