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

const repositoryRoot = new URL('../../../', import.meta.url).pathname

/** A TypeScript fixture under this folder, run as an MCP server over stdio. */
export function fixtureServer(file: string, name: string): McpStdioServer {
  return {
    name,
    command: process.execPath,
    args: ['--import', 'tsx', new URL(file, import.meta.url).pathname],
    cwd: repositoryRoot,
  }
}
