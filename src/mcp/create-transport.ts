import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpHttpServer, McpStdioServer } from './mcp-connection-types.js'

const STDERR_TAIL_BYTES = 2048

export interface ClientTransport {
  readonly transport: Transport
  /** The last bytes the server wrote to stderr (stdio with `stderr: 'pipe'` only). */
  stderrTail(): string
  /** The child process id of a stdio server. */
  pid(): number | undefined
}

function isHttp(server: McpStdioServer | McpHttpServer): server is McpHttpServer {
  return 'url' in server
}

function stdioTransport(server: McpStdioServer): ClientTransport {
  const mode = server.stderr ?? 'pipe'
  const transport = new StdioClientTransport({
    command: server.command,
    args: [...(server.args ?? [])],
    ...(server.env === undefined ? {} : { env: { ...server.env } }),
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
    stderr: mode,
  })
  let tail = ''
  // A piped stderr that nobody reads fills its buffer and blocks the server, so it is always drained.
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES)
  })
  return { transport, stderrTail: () => tail, pid: () => transport.pid ?? undefined }
}

function httpTransport(server: McpHttpServer): ClientTransport {
  const url = typeof server.url === 'string' ? new URL(server.url) : server.url
  const transport = new StreamableHTTPClientTransport(url, {
    ...(server.headers === undefined ? {} : { requestInit: { headers: { ...server.headers } } }),
  })
  return { transport, stderrTail: () => '', pid: () => undefined }
}

export function createClientTransport(server: McpStdioServer | McpHttpServer): ClientTransport {
  return isHttp(server) ? httpTransport(server) : stdioTransport(server)
}
