import { createRequire } from 'node:module'
import type { McpStdioServer } from '../mcp-connection-types.js'

const require = createRequire(import.meta.url)

function entry(packageName: string): string {
  return require.resolve(`@modelcontextprotocol/${packageName}/dist/index.js`)
}

/** `@modelcontextprotocol/server-filesystem`, allowed to touch `directory` only. */
export function filesystemServer(directory: string, name = 'fs'): McpStdioServer {
  return { name, command: process.execPath, args: [entry('server-filesystem'), directory] }
}

/** `@modelcontextprotocol/server-memory`, persisting its graph to `memoryFile`. */
export function memoryServer(memoryFile: string, name = 'memory'): McpStdioServer {
  return { name, command: process.execPath, args: [entry('server-memory')], env: { MEMORY_FILE_PATH: memoryFile } }
}

/** `@modelcontextprotocol/server-everything` over stdio. */
export function everythingServer(name = 'everything'): McpStdioServer {
  return { name, command: process.execPath, args: [entry('server-everything'), 'stdio'] }
}

const repositoryRoot = new URL('../../../../', import.meta.url).pathname

/** A TypeScript fixture under this folder, run as an MCP server over stdio. */
export function fixtureServer(file: string, name: string): McpStdioServer {
  return {
    name,
    command: process.execPath,
    args: ['--import', 'tsx', new URL(file, import.meta.url).pathname],
    cwd: repositoryRoot,
  }
}

/** `server-everything` over Streamable HTTP on `port`, started as a child process; resolves once it listens. */
export async function startEverythingHttp(port: number): Promise<{ readonly url: string; stop(): void }> {
  const { spawn } = await import('node:child_process')
  const child = spawn(process.execPath, [entry('server-everything'), 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  await new Promise<void>((resolve, reject) => {
    let output = ''
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (output.includes('listening on port')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${output}`)))
  })
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill('SIGKILL') }
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net')
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (typeof address !== 'object' || address === null) throw new Error('no port')
  return address.port
}
