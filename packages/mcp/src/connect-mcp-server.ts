import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  type CallToolResult,
  CallToolResultSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js'
import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import { ToolRuntimeError } from 'qilin-tools/internal/errors/tool-runtime-error.js'
import type { JsonObject } from 'qilin-tools/internal/json-schema/json-value.js'
import { createAutoReconnect } from './auto-reconnect.js'
import { callFailure, classifyCallFailure, unavailable } from './call-error.js'
import { createCallInteractions } from './call-interactions.js'
import { type ClientTransport, createClientTransport } from './create-transport.js'
import { boundedLogMessage, rateLimitedLog } from './log-messages.js'
import type {
  McpConnection,
  McpConnectionState,
  McpConnectionStatus,
  McpConnectOptions,
  McpToolHost,
} from './mcp-connection-types.js'
import type { McpCallContext } from './mcp-tool-definition.js'
import { type Authorizer, createAuthorizer } from './oauth-authorizer.js'
import { isAuthorizationRefusal } from './oauth-refusal.js'
import { fileTokenStore } from './oauth-token-store.js'
import { deliverInOrder } from './ordered-delivery.js'
import { attachResourceReader } from './read-resource-tool.js'
import { createRegisteredToolSet } from './registered-tool-set.js'
import { createToolListingSync, listAllTools } from './tool-listing-sync.js'
import { createUpstreamCatalog } from './upstream-catalog.js'

const CLIENT_INFO = { name: 'qilin-tools', version: '0.1.0' }
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000
const DEFAULT_PING_TIMEOUT_MS = 5_000
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000
const DEFAULT_AUTHORIZATION_TIMEOUT_MS = 300_000

/** Output is checked by our pipeline against the same schema, so the SDK's own pass would be a second one. */
const acceptAll: jsonSchemaValidator = {
  getValidator: () => (input) => ({ valid: true, data: input as never, errorMessage: undefined }),
}

interface Session {
  readonly client: Client
  readonly channel: ClientTransport
}

/**
 * Connects to one MCP server and registers its tools in `host`. Resolves once every page of the listing is
 * registered. A crash or hang marks the connection `failed`; calls then fail with `TOOL_ERROR` naming the server
 * until it reconnects. Reconnecting is explicit by default (`reconnect()`: a server that crashes on start would
 * otherwise loop, and the host may want to look first); `autoReconnect` opts into retries with backoff. Calls are
 * never replayed: one that was in flight stays failed.
 */
export async function connectMcpServer(host: McpToolHost, options: McpConnectOptions): Promise<McpConnection> {
  const serverName = options.name
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  const pingTimeoutMs = options.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS
  let session: Session | undefined
  const onLog = options.onLog
  const log =
    onLog === undefined
      ? undefined
      : rateLimitedLog(serverName, (message) => {
          try {
            onLog(message)
          } catch {
            // The host's listener is not the server's problem: the connection keeps running.
          }
        })
  const interactions = createCallInteractions({
    serverName,
    requestTimeoutMs,
    capabilities: options.capabilities,
    onSampling: options.onSampling,
    onElicitation: options.onElicitation,
    onProgress: options.onProgress,
  })
  const callLog = rateLimitedLog(serverName, (message) => interactions.forwardLog(message))
  let state: McpConnectionState = 'connecting'
  let error: string | undefined
  let reconnecting = false
  const authorizer = await authorizerFor(options, connectTimeoutMs)
  /** Runs a request again after an OAuth authorization it began; without `oauth`, runs it once. */
  const authorized = <T>(attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> =>
    authorizer === undefined ? attempt() : authorizer.retrying(attempt, signal)

  const status = (): McpConnectionStatus => {
    const serverInfo = session?.client.getServerVersion()
    const pid = session?.channel.pid()
    return Object.freeze({
      server: serverName,
      state,
      ...(error === undefined ? {} : { error }),
      ...(serverInfo === undefined ? {} : { serverInfo }),
      ...(pid === undefined ? {} : { pid }),
      syncs: listing.count,
    })
  }
  const setState = (next: McpConnectionState, reason?: string) => {
    state = next
    error = reason
    options.onStatus?.(status())
  }
  const fail = (current: Session, reason: string) => {
    if (session !== current || state === 'closed' || state === 'failed') return
    const tail = current.channel.stderrTail().trim().split('\n').at(-1)
    setState('failed', tail ? `${reason}; last stderr line: ${tail}` : reason)
    void current.client.close().catch(() => {})
    if (!reconnecting) automatic?.start()
  }

  const call = async (toolName: string, args: JsonObject, context: McpCallContext): Promise<CallToolResult> => {
    const current = session
    const { signal } = context
    if (current === undefined || state !== 'connected') throw unavailable(serverName, error ?? state)
    try {
      const result = await interactions.track(context.callId, toolName, (onprogress) =>
        authorized(
          () =>
            current.client.callTool({ name: toolName, arguments: args }, CallToolResultSchema, {
              // A dependent signal per request: the SDK listens on it, and many calls may share the caller's signal.
              signal: AbortSignal.any([signal]),
              timeout: requestTimeoutMs,
              resetTimeoutOnProgress: true,
              onprogress,
            }),
          signal,
        ),
      )
      return result as CallToolResult
    } catch (cause) {
      const kind =
        authorizer !== undefined && isAuthorizationRefusal(cause) ? 'server' : classifyCallFailure(cause, signal)
      if (kind === 'closed') fail(current, 'the server closed the connection')
      if (kind === 'transport') fail(current, `transport error: ${thrownMessage(cause)}`)
      if (kind === 'timeout') await checkAlive(current)
      throw callFailure(serverName, kind, cause)
    }
  }

  const checkAlive = async (current: Session) => {
    try {
      await current.client.ping({ timeout: pingTimeoutMs })
    } catch {
      fail(current, `the server did not answer a ping within ${pingTimeoutMs} ms after a call timed out`)
    }
  }

  const tools = createRegisteredToolSet({ host, serverName, prefix: options.prefix, filter: options.filter, call })
  const catalog = createUpstreamCatalog({
    server: serverName,
    prefix: options.prefix,
    requestTimeoutMs,
    listTimeoutMs: connectTimeoutMs,
    maxContentBytes: options.maxContentBytes,
    client: () => (state === 'connected' ? session?.client : undefined),
    onProblem: (problem) => {
      if (state === 'connected') setState('connected', problem)
    },
  })
  let resourceReader: { dispose(): void } | undefined

  const listing = createToolListingSync({
    client: () => (state === 'connected' ? session?.client : undefined),
    list: (client, signal) =>
      listAllTools(
        client,
        (attempt) => authorized(attempt, signal),
        requestOptions(connectTimeoutMs, signal),
        (problem) => {
          if (state === 'connected') setState('connected', `tools/list: ${problem}`)
        },
      ),
    apply: (listed) => tools.apply(listed),
    onChanged: () => options.onToolsChanged?.(tools.names()),
  })

  const resync = () => {
    listing.sync().catch((cause: unknown) => {
      if (state === 'connected') setState('connected', `re-sync failed: ${thrownMessage(cause)}`)
    })
  }

  /** Connects one new session, or throws what stopped it (the session is dropped first). */
  const start = async (signal?: AbortSignal) => {
    // Each attempt is announced once: a stdio server as soon as it runs, with its pid (so a host sees it go even if
    // initialize never answers), a remote server as the attempt begins.
    const announce = () => {
      if (session === current) setState('connecting')
    }
    const channel = createClientTransport(options, authorizer, announce)
    const client = new Client(CLIENT_INFO, {
      capabilities: interactions.capabilities(),
      jsonSchemaValidator: acceptAll,
    })
    const current: Session = { client, channel }
    session = current
    if ('url' in options) announce()
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (session === current) resync()
    })
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      if (session !== current) return
      const message = boundedLogMessage(serverName, notification.params)
      callLog(message)
      log?.(message)
    })
    interactions.install(client, () => session === current)
    if (options.capabilities?.roots !== undefined) {
      client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [...(options.roots ?? [])] }))
    }
    catalog.attach(client, () => session === current)
    client.onclose = () => fail(current, 'the server closed the connection')
    try {
      signal?.throwIfAborted()
      await client.connect(channel.transport, requestOptions(connectTimeoutMs, signal))
      deliverInOrder(channel.transport)
    } catch (cause) {
      startFailure = cause
      // A server that did not even start is owed no polite shutdown; nor is it a failure of a running session.
      channel.kill()
      session = undefined
      await client.close().catch(() => {})
      lastStderr = channel.stderrTail().trim()
      throw cause
    }
  }

  let startFailure: unknown
  let lastStderr = ''
  /** Starts a session; `signal` gives the start up (the first one only: a reconnect is the host's own call). */
  const open = async (signal?: AbortSignal) => {
    try {
      await authorized(() => start(signal), signal)
    } catch (cause) {
      const detail = thrownMessage(cause)
      const tail = cause === startFailure ? lastStderr : ''
      throw new Error(`MCP server "${serverName}" failed to start: ${detail}${tail ? `\n${tail}` : ''}`, { cause })
    }
    setState('connected')
    await listing.sync(signal)
    await catalog.sync(signal)
    if (catalog.offers.resources && resourceReader === undefined) {
      try {
        resourceReader = attachResourceReader(host, catalog)
      } catch (cause) {
        // A host tool already named read_resource keeps its name; resources stay readable through the catalog.
        setState('connected', `read_resource not registered: ${thrownMessage(cause)}`)
      }
    }
  }

  const connection: McpConnection = {
    name: serverName,
    get tools() {
      return tools.names()
    },
    get skippedTools() {
      return tools.skipped()
    },
    get status() {
      return status()
    },
    catalog,
    async reconnect() {
      if (state === 'closed') throw new ToolRuntimeError(`MCP connection "${serverName}" was disposed`)
      const previous = session
      session = undefined
      reconnecting = true
      try {
        await previous?.client.close().catch(() => {})
        state = 'connecting'
        error = undefined
        await open()
      } catch (cause) {
        setState('failed', thrownMessage(cause))
      } finally {
        reconnecting = false
      }
      return status()
    },
    settled: async () => {
      await listing.settled()
      await catalog.settled()
    },
    async dispose() {
      if (state === 'closed') return
      automatic?.cancel()
      authorizer?.close()
      setState('closed')
      tools.clear()
      catalog.clear()
      resourceReader?.dispose()
      const current = session
      session = undefined
      await current?.client.close().catch(() => {})
    },
  }

  const automatic =
    options.autoReconnect === undefined || options.autoReconnect === false
      ? undefined
      : createAutoReconnect(
          options.autoReconnect === true ? {} : options.autoReconnect,
          () => state === 'failed',
          () => connection.reconnect(),
        )

  try {
    await open(options.signal)
  } catch (cause) {
    session?.channel.kill()
    await connection.dispose()
    throw cause
  }
  return connection
}

/** The connection's OAuth side, for an HTTP server with `oauth`; its record is read from the store once, here. */
async function authorizerFor(options: McpConnectOptions, requestTimeoutMs: number): Promise<Authorizer | undefined> {
  if (!('url' in options) || options.oauth === undefined) return undefined
  return createAuthorizer({
    serverName: options.name,
    serverUrl: new URL(options.url),
    client: options.oauth,
    ...(options.oauthPresentation === undefined ? {} : { presentation: options.oauthPresentation }),
    store: options.tokenStore ?? fileTokenStore(),
    openBrowser: options.openBrowser,
    authorizationTimeoutMs: options.authorizationTimeoutMs ?? DEFAULT_AUTHORIZATION_TIMEOUT_MS,
    requestTimeoutMs,
  })
}

function requestOptions(timeout: number, signal: AbortSignal | undefined) {
  return signal === undefined ? { timeout } : { timeout, signal }
}
