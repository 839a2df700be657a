import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { builtCli, createTempProject, ensureBuiltCli, type TempProject } from './support/built-cli.js'

let project: TempProject
let client: Client | undefined
beforeAll(() => ensureBuiltCli(), 180_000)
beforeEach(() => {
  project = createTempProject({ 'notes.txt': 'one\ntwo\n' })
})
afterEach(async () => {
  await client?.close()
  client = undefined
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
    expect(text(read)).toBe('1\tone\n2\ttwo')
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

  it('serves Streamable HTTP on loopback and stops on SIGTERM', async () => {
    const server = spawn(process.execPath, ['--no-node-snapshot', builtCli, 'serve', '--http', '0'], {
      cwd: project.directory,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    const url = await new Promise<string>((resolve, reject) => {
      server.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk
        const match = /serving MCP at (\S+)/.exec(stderr)
        if (match?.[1] !== undefined) resolve(match[1])
      })
      server.on('close', () => reject(new Error(`serve exited early: ${stderr}`)))
    })
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    client = new Client({ name: 'qilin-tools-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(url)))
    const result = await client.callTool({ name: 'file_info', arguments: { path: 'notes.txt' } })
    expect(result.structuredContent).toMatchObject({ path: 'notes.txt', size: 8 })
    await client.close()
    client = undefined
    const closed = once(server, 'close')
    server.kill('SIGTERM')
    const [code] = await closed
    expect(code).toBe(0)
  })
})
