import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { INITIALIZE, mcpHeaders, rawRequest } from '@qilin-tools/mcp/internal/__fixtures__/raw-http.js'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { builtCli, createTempProject, ensureBuiltCli, runBuiltCli, type TempProject } from './support/built-cli.js'

let project: TempProject
let client: Client | undefined
const servers: ChildProcess[] = []
beforeAll(() => ensureBuiltCli(), 180_000)
beforeEach(() => {
  project = createTempProject({ 'notes.txt': 'one\ntwo\n' })
})
afterEach(async () => {
  await client?.close()
  client = undefined
  for (const server of servers.splice(0)) if (server.exitCode === null) server.kill('SIGKILL')
  project.dispose()
})

async function connectStdio(...args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--no-node-snapshot', builtCli, 'serve', ...args],
    cwd: project.directory,
    stderr: 'pipe',
  })
  client = new Client({ name: 'qilin-tools-test', version: '1.0.0' })
  await client.connect(transport)
  return client
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join('\n')

describe('qilin-tools serve', () => {
  it('serves the workspace toolkit over stdio to an MCP client', async () => {
    const mcp = await connectStdio()
    const { tools } = await mcp.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'bash',
      'edit_file',
      'file_info',
      'glob',
      'grep',
      'list_directory',
      'read_file',
      'write_file',
    ])
    const read = await mcp.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } })
    expect(read.isError).not.toBe(true)
    // A structured result reads as its value serialized, not as the numbered rendering beside it.
    expect(JSON.parse(text(read))).toEqual(read.structuredContent)
    expect(read.structuredContent).toMatchObject({ path: 'notes.txt', content: 'one\ntwo' })
  })

  it('refuses escapes and asks before bash, as results the client can read', async () => {
    project.link('escape', project.outside)
    const mcp = await connectStdio()
    for (const path of ['../outside/secret.txt', `${project.outside}/secret.txt`, 'escape/secret.txt']) {
      const result = await mcp.callTool({ name: 'read_file', arguments: { path } })
      expect(result.isError).toBe(true)
      expect(text(result)).toMatch(/^Error: path ".*" is outside the workspace/)
    }
    const bash = await mcp.callTool({ name: 'bash', arguments: { command: 'echo hi' } })
    expect(bash.isError).toBe(true)
  })

  it('serves run_code alone in ptc mode', async () => {
    const mcp = await connectStdio('--mode', 'ptc')
    const { tools } = await mcp.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['run_code'])
    const result = await mcp.callTool({
      name: 'run_code',
      arguments: { code: "const r = await tools.file_info({ path: 'notes.txt' })\nreturn r.size", description: 'size' },
    })
    expect(result.isError).not.toBe(true)
    expect(text(result)).toBe('8')
  })

  it('serves Streamable HTTP on loopback with a generated token, printed once, and stops on SIGTERM', async () => {
    const server = startHttp()
    const { url, stderr } = await server.listening
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    const token = /"Authorization: Bearer ([A-Za-z0-9_-]{43})"/.exec(stderr)?.[1]
    expect(token).toBeDefined()
    expect(stderr.split(token!)).toHaveLength(2)
    expect((await initialize(url, {})).status).toBe(401)
    client = new Client({ name: 'qilin-tools-test', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    )
    const result = await client.callTool({ name: 'file_info', arguments: { path: 'notes.txt' } })
    expect(result.structuredContent).toMatchObject({ path: 'notes.txt', size: 8 })
    expect(JSON.parse(text(result))).toEqual(result.structuredContent)
    await client.close()
    client = undefined
    // It stops cleanly; whether SIGTERM then means exit 0 or 143 belongs to the signal handling, not to serving.
    expect([0, 143]).toContain(await server.stop())
    expect(server.stderr().split(token!)).toHaveLength(2)
  })

  it('puts an approval to an HTTP client that keeps no GET stream, on the stream of the call', async () => {
    // The approval's path is the subject here, not confinement (bash-tool.test.ts has that): run bash on the host.
    project.write('qilin.config.json', JSON.stringify({ bash: { sandbox: 'none' } }))
    const server = startHttp()
    const { url, stderr } = await server.listening
    const token = /"Authorization: Bearer ([A-Za-z0-9_-]{43})"/.exec(stderr)?.[1]
    client = new Client({ name: 'qilin-tools-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } })
    const asked: string[] = []
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message)
      return { action: 'accept', content: { approve: true } }
    })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
        // Refused on the client side: the server never gets a GET stream to send anything on.
        fetch: (target, init) =>
          init?.method === 'GET' ? Promise.resolve(new Response(null, { status: 405 })) : fetch(target, init),
      }),
    )
    const started = Date.now()
    const result = await client.callTool({ name: 'bash', arguments: { command: 'echo approved' } })
    expect(asked).toHaveLength(1)
    expect(asked[0]).toContain('bash')
    expect(result.isError).not.toBe(true)
    expect(text(result)).toContain('approved')
    expect(Date.now() - started).toBeLessThan(30_000)
    await client.close()
    client = undefined
    await server.stop()
  })

  it('takes a fixed token from QILIN_SERVE_TOKEN without printing it, and refuses a rebound Host', async () => {
    const token = 'environment-token-0123456789'
    const server = startHttp([], { QILIN_SERVE_TOKEN: token })
    const { url, stderr } = await server.listening
    expect(stderr).not.toContain(token)
    expect(stderr).toContain('"Authorization: Bearer <QILIN_SERVE_TOKEN>"')
    expect((await initialize(url, { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401)
    expect((await initialize(url, { authorization: `Bearer ${token}` })).status).toBe(200)
    expect((await initialize(url, { authorization: `Bearer ${token}`, host: 'rebound.example' })).status).toBe(403)
    await server.stop()
  })

  it('passes serve.token, allowedHosts and maxSessions from the config through', async () => {
    const token = 'config-token-0123456789abcdef'
    project.write(
      'qilin.config.json',
      JSON.stringify({ serve: { token, allowedHosts: ['mcp.example.test'], maxSessions: 1 } }),
    )
    const server = startHttp([], { QILIN_SERVE_TOKEN: 'the-config-wins-0123456789' })
    const { url, stderr } = await server.listening
    expect(stderr).toContain('<serve.token from the config>')
    const headers = { authorization: `Bearer ${token}`, host: 'mcp.example.test' }
    expect((await initialize(url, headers)).status).toBe(200)
    expect((await initialize(url, headers)).status).toBe(503)
    await server.stop()
  })

  it('serves without a token under --no-auth, with a warning, still checking Host', async () => {
    const server = startHttp(['--no-auth'])
    const { url, stderr } = await server.listening
    expect(stderr).toMatch(/warning: --no-auth/)
    expect((await initialize(url, {})).status).toBe(200)
    expect((await initialize(url, { host: 'rebound.example' })).status).toBe(403)
    await server.stop()
  })

  it('refuses a short fixed token and --no-auth without --http', async () => {
    const short = await runBuiltCli(['serve', '--http', '0'], {
      cwd: project.directory,
      env: { QILIN_SERVE_TOKEN: 'short' },
    })
    expect(short.code).toBe(2)
    expect(short.stderr).toContain('QILIN_SERVE_TOKEN must be at least 16 characters (got 5)')
    const stdio = await runBuiltCli(['serve', '--no-auth'], { cwd: project.directory })
    expect(stdio.code).toBe(2)
    expect(stdio.stderr).toContain('serve: --no-auth applies to --http only')
  })
})

/** `serve --http 0` as a child process; `listening` resolves with the URL once it is printed. */
function startHttp(args: readonly string[] = [], env: Record<string, string> = {}) {
  const server = spawn(process.execPath, ['--no-node-snapshot', builtCli, 'serve', '--http', '0', ...args], {
    cwd: project.directory,
    env: { ...process.env, QILIN_SERVE_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  const listening = new Promise<{ url: string; stderr: string }>((resolve, reject) => {
    server.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk
      const match = /serving MCP at (\S+)/.exec(stderr)
      // The token line follows the URL line; wait for both.
      if (match?.[1] !== undefined && stderr.split('\n').length > 2) resolve({ url: match[1], stderr })
    })
    server.on('close', () => reject(new Error(`serve exited early: ${stderr}`)))
  })
  const closed = once(server, 'close')
  servers.push(server)
  return {
    listening,
    stderr: () => stderr,
    async stop() {
      server.kill('SIGTERM')
      const [code] = await closed
      return code as number | null
    },
  }
}

function initialize(url: string, headers: Record<string, string>) {
  return rawRequest(url, { headers: mcpHeaders(url, headers), body: INITIALIZE })
}
