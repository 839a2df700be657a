import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { PresentationMode } from 'qilin-tools/internal/registry/tool-schema.js'
import { generateToken, type HttpAuth } from './bearer-auth.js'
import { type ServedCatalog, serveCatalog } from './catalog-handlers.js'
import { createCatalogRouter } from './catalog-router.js'
import type { McpLogMessage } from './log-messages.js'
import type { McpCatalog } from './mcp-catalog-types.js'
import { createSessionServer, type ServedScope } from './mcp-session-server.js'
import { type HttpServeOptions, listenHttp } from './serve-http.js'

/** A runtime (or any view of one) that `serveMcp` can expose. */
export interface McpServedRuntime extends ServedScope {
  presentAs(mode: PresentationMode): { dispose(): void }
  onToolsChanged(listener: () => void): { dispose(): void }
  /** A view of one agent, disposed when the serving closes. */
  agent(id: string): McpServedRuntime & { dispose(): void }
}

/** Streamable HTTP: where to listen, who may connect, how many sessions are kept. */
export interface McpHttpTransport extends HttpServeOptions {
  /**
   * `{ token }` requires `Authorization: Bearer <token>` (16 characters at least); `'none'` accepts anyone who
   * passes the Host/Origin check. Left out, a random token is generated: read it from `McpServing.token`.
   * @default a generated token
   */
  readonly auth?: HttpAuth
}

/** How `serveMcp` offers a runtime's tools to MCP clients: the transport, the presentation and the scope. */
export interface ServeMcpOptions {
  /**
   * `stdio` speaks over this process's stdin and stdout; `http` listens for Streamable HTTP on loopback by default,
   * with a bearer token and DNS-rebinding protection.
   */
  readonly transport: 'stdio' | { readonly http: McpHttpTransport }
  /** `native`: every visible tool; `ptc`: `run_code` alone, its description carrying the SDK; `both`: all of them. */
  readonly mode: PresentationMode
  /** Serve this agent's view instead of the global one. @default the global view */
  readonly agent?: string
  /** Sent to clients in the `initialize` result. @default none */
  readonly instructions?: string
  /**
   * Connections (from `connectMcpServer`) whose resources, resource templates, prompts and completion are served
   * beside the tools, each request routed to the server that listed what it names; earlier ones win a URI or name
   * two of them list. Subscriptions are offered when some upstream offers them.
   * @default none: no resources or prompts are served
   */
  readonly upstreams?: readonly { readonly catalog: McpCatalog }[]
}

/** A running MCP server: its HTTP endpoint and token, and the means to announce tool changes and stop. */
export interface McpServing {
  /** The Streamable HTTP endpoint, when serving over HTTP. */
  readonly url?: string
  /** The bearer token HTTP clients send (given or generated); absent over stdio and with `auth: 'none'`. */
  readonly token?: string
  /**
   * Sends `notifications/tools/list_changed` to every connected client. Registrations, disposals, masks and
   * presentation changes that alter the served scope send it by themselves; this is for anything else.
   */
  toolsChanged(): void
  /**
   * Sends a log message (`notifications/message`) to every connected client at or above the level it chose with
   * `logging/setLevel`; the logger names the server it came from. For passing on what `connectMcpServer`'s `onLog`
   * receives.
   */
  log(message: McpLogMessage): void
  close(): Promise<void>
}

/**
 * Serves the tools one scope of `runtime` shows under `mode` to MCP clients. The presentation is set on that scope
 * for as long as it is served. Calls run through the whole pipeline; an `ask` reaches the calling client as an
 * elicitation when the runtime's approver is `elicitationApprover(...)`.
 */
export async function serveMcp(runtime: McpServedRuntime, options: ServeMcpOptions): Promise<McpServing> {
  const agent = options.agent === undefined ? undefined : runtime.agent(options.agent)
  const scope = agent ?? runtime
  let presentation: { dispose(): void } | undefined
  try {
    presentation = scope.presentAs(options.mode)
    // Fails early, for example when `ptc` is asked of a runtime without a PTC runtime.
    scope.prompt()
  } catch (error) {
    presentation?.dispose()
    agent?.dispose()
    throw error
  }
  const live = new Set<Server>()
  const router =
    options.upstreams === undefined ? undefined : createCatalogRouter(options.upstreams.map((up) => up.catalog))
  const catalogs = new Map<Server, ServedCatalog>()
  const newServer = () => {
    const server = createSessionServer(scope, options.instructions)
    const served = router === undefined ? undefined : serveCatalog(server, router)
    if (served !== undefined) catalogs.set(server, served)
    live.add(server)
    server.onclose = () => {
      live.delete(server)
      catalogs.delete(server)
      served?.close()
    }
    return server
  }
  const catalogWatch = router?.onChange((change) => {
    for (const served of catalogs.values()) served.notify(change)
  })
  const toolsChanged = () => {
    for (const server of live) server.sendToolListChanged().catch(() => {})
  }
  const log = (message: McpLogMessage) => {
    const logger = message.logger === undefined ? message.server : `${message.server}/${message.logger}`
    for (const server of live) {
      server
        .sendLoggingMessage({ level: message.level, logger, data: message.data }, server.transport?.sessionId)
        .catch(() => {})
    }
  }
  const watching = scope.onToolsChanged(toolsChanged)
  const stop = () => {
    watching.dispose()
    catalogWatch?.dispose()
    presentation.dispose()
    agent?.dispose()
  }
  try {
    if (options.transport === 'stdio') {
      const server = newServer()
      await server.connect(new StdioServerTransport())
      return {
        toolsChanged,
        log,
        async close() {
          await server.close()
          stop()
        },
      }
    }
    const http = options.transport.http
    const auth = http.auth ?? { token: generateToken() }
    const endpoint = await listenHttp(newServer, { ...http, auth })
    return {
      url: endpoint.url,
      ...(auth === 'none' ? {} : { token: auth.token }),
      toolsChanged,
      log,
      async close() {
        await endpoint.close()
        stop()
      },
    }
  } catch (error) {
    stop()
    throw error
  }
}
