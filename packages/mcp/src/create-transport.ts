import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { boundedHttpMessages } from './bounded-http-messages.js'
import type { McpHttpServer, McpStdioServer } from './mcp-connection-types.js'
import type { Authorizer } from './oauth-authorizer.js'
import { ServerProcessTransport } from './server-process-transport.js'

const STDERR_TAIL_BYTES = 2048

export interface ClientTransport {
  readonly transport: Transport
  /** The last bytes the server wrote to stderr (stdio with `stderr: 'pipe'` only). */
  stderrTail(): string
  /** The child process id of a stdio server. */
  pid(): number | undefined
  /** SIGKILLs a stdio server and its process group at once, for a start that failed or was given up. */
  kill(): void
}

function isHttp(server: McpStdioServer | McpHttpServer): server is McpHttpServer {
  return 'url' in server
}

function stdioTransport(server: McpStdioServer, onSpawn: (() => void) | undefined): ClientTransport {
  let tail = ''
  const transport = new ServerProcessTransport({
    command: server.command,
    args: server.args ?? [],
    ...(server.env === undefined ? {} : { env: server.env }),
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
    stderr: server.stderr ?? 'pipe',
    onStderr: (chunk) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES)
    },
    ...(onSpawn === undefined ? {} : { onSpawn }),
  })
  return { transport, stderrTail: () => tail, pid: () => transport.pid, kill: () => transport.kill() }
}

function httpTransport(server: McpHttpServer, authorizer: Authorizer | undefined): ClientTransport {
  const url = typeof server.url === 'string' ? new URL(server.url) : server.url
  const transport = new StreamableHTTPClientTransport(url, {
    ...(server.headers === undefined ? {} : { requestInit: { headers: { ...server.headers } } }),
    ...(authorizer === undefined ? {} : { authProvider: authorizer.provider }),
    fetch: boundedHttpMessages(authorizer?.fetch ?? fetch),
  })
  return { transport, stderrTail: () => '', pid: () => undefined, kill: () => {} }
}

export function createClientTransport(
  server: McpStdioServer | McpHttpServer,
  authorizer?: Authorizer | undefined,
  onSpawn?: () => void,
): ClientTransport {
  return isHttp(server) ? httpTransport(server, authorizer) : stdioTransport(server, onSpawn)
}
