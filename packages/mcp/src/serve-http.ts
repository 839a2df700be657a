import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { InvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { createBearerCheck, type HttpAuth } from './bearer-auth.js'
import { createEventStore, type EventReplayLimits } from './event-store.js'
import { createBodyBudget, HttpRpcCode, readBody, reject } from './http-replies.js'
import { createRequestGuard } from './http-request-guard.js'
import { createSessionTable } from './session-table.js'

/** Streamable HTTP serving: where, who may connect, and how many sessions it keeps. */
export interface HttpServeOptions {
  /** `0` picks a free port. */
  readonly port: number
  /** The address to bind. @default `127.0.0.1` */
  readonly host?: string
  /** `Host` header values accepted besides loopback names and the bound address: `name` (any port) or `name:port`. @default none */
  readonly allowedHosts?: readonly string[]
  /** `Origin` values accepted besides loopback origins on the bound port: `scheme://host[:port]`. @default none */
  readonly allowedOrigins?: readonly string[]
  /** A session with no request open for this long is closed. @default 900 000 (15 minutes) */
  readonly sessionIdleMs?: number
  /** Sessions open at once; past it, `initialize` gets 503 and existing sessions keep working. @default 100 */
  readonly maxSessions?: number
  /** Larger request bodies get 413. @default 4 MiB */
  readonly maxBodyBytes?: number
  /**
   * Resumable streams: each SSE event gets an id, and a client that lost a stream reconnects with `Last-Event-ID`
   * and is sent what it missed, from a bounded store per session. `false` turns it off.
   * @default on, with the limits' defaults
   */
  readonly replay?: EventReplayLimits | false
}

/** Limits on slow or greedy peers; tests shorten them. */
export interface HttpLimits {
  /** Time to receive a request's headers (default 10 000). */
  readonly headersMs?: number
  /** Time to receive a whole request, body included (default 30 000). */
  readonly requestMs?: number
  /** Request-body bytes held at once across all requests; past it, 503 (default 64 MiB). */
  readonly bufferedBodyBytes?: number
}

export interface HttpEndpoint {
  /** `http://<host>:<port>/mcp` */
  readonly url: string
  /** Sessions open now (opening ones included). */
  readonly openSessions: number
  close(): Promise<void>
}

const MCP_PATH = '/mcp'
export const DEFAULT_SESSION_IDLE_MS = 15 * 60_000
export const DEFAULT_MAX_SESSIONS = 100
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024

function positive(name: string, value: number | undefined, fallback: number, integer: boolean): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new InvalidArgumentError(
      `serveMcp: http.${name} must be a positive ${integer ? 'integer' : 'number'} (got ${value})`,
    )
  }
  return value
}

function isInitialize(message: unknown): boolean {
  return Array.isArray(message) ? message.some(isInitializeRequest) : isInitializeRequest(message)
}

interface Session {
  readonly transport: StreamableHTTPServerTransport
  close(): Promise<void>
}

/**
 * Streamable HTTP on `host:port`. Every request passes, in order: the Host/Origin guard (403), the path (404), the
 * bearer token (401), then the session: a known `mcp-session-id` goes to its transport, an unknown one gets 404, none
 * gets 400 unless the body is an `initialize`, which opens a session (503 when the table is full). A refused
 * request creates nothing and runs nothing. Each session gets its own MCP server from `newServer`.
 */
export async function listenHttp(
  newServer: () => Server,
  options: HttpServeOptions & { readonly auth: HttpAuth },
  limits: HttpLimits = {},
): Promise<HttpEndpoint> {
  const host = options.host ?? '127.0.0.1'
  const maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, true)
  const retryInterval = options.replay === false ? 0 : positive('replay.retryMs', options.replay?.retryMs, 1000, false)
  // Checked here, so a bad limit fails before the port opens rather than on the first session.
  if (options.replay !== false) createEventStore(options.replay)
  const sessions = createSessionTable<Session>({
    idleMs: positive('sessionIdleMs', options.sessionIdleMs, DEFAULT_SESSION_IDLE_MS, false),
    maxSessions: positive('maxSessions', options.maxSessions, DEFAULT_MAX_SESSIONS, true),
  })
  // Made before binding, so a bad entry fails without opening a port; remade with the bound port below.
  let guard = createRequestGuard({ ...options, host })
  const budget = createBodyBudget(limits.bufferedBodyBytes ?? 64 * 1024 * 1024)
  const authorized = options.auth === 'none' ? () => true : createBearerCheck(options.auth.token)

  const parsedBody = async (
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<{ value: unknown } | undefined> => {
    const body = await readBody(request, maxBodyBytes, budget)
    if (!body.ok) {
      // The rest of the body is never read: answer, then drop the connection.
      response.once('finish', () => request.destroy())
      const headers = { connection: 'close' }
      if (body.reason === 'too-large') {
        reject(response, 413, `Payload Too Large: the request body must not exceed ${maxBodyBytes} bytes`, { headers })
      } else {
        reject(response, 503, 'Service Unavailable: too many request bodies in flight; retry later', {
          headers: { ...headers, 'retry-after': '1' },
        })
      }
      return undefined
    }
    try {
      return { value: JSON.parse(body.text) as unknown }
    } catch {
      reject(response, 400, 'Parse error: the request body is not JSON', { code: HttpRpcCode.parseError })
      return undefined
    }
  }

  const openSession = async (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    const place = sessions.reserve()
    if (place === undefined) {
      reject(response, 503, 'Service Unavailable: too many open sessions; close one or retry later', {
        headers: { 'retry-after': '5' },
      })
      return
    }
    const server = newServer()
    const replay = options.replay === false ? {} : { eventStore: createEventStore(options.replay), retryInterval }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      ...replay,
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => place.admit(sessionId, { transport, close: () => server.close() }),
      onsessionclosed: (sessionId) => sessions.forget(sessionId),
    })
    try {
      await server.connect(transport)
      await transport.handleRequest(request, response, body)
    } finally {
      // Anything but a successful `initialize` leaves the transport without a session: nobody can reach it again.
      if (transport.sessionId === undefined) {
        place.release()
        await server.close()
      }
    }
  }

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const refused = guard(request.headers)
    if (refused !== undefined) return reject(response, 403, refused.message)
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== MCP_PATH) {
      return reject(response, 404, `Not Found: the MCP endpoint is ${MCP_PATH}`)
    }
    if (!authorized(request.headers.authorization)) {
      return reject(response, 401, 'Unauthorized: send the header "Authorization: Bearer <token>"', {
        headers: { 'www-authenticate': 'Bearer realm="qilin-tools"' },
      })
    }
    const sessionId = request.headers['mcp-session-id']
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId)
      if (session === undefined) {
        return reject(response, 404, 'Session not found', { code: HttpRpcCode.sessionNotFound })
      }
      const done = sessions.busy(sessionId)
      response.once('close', done)
      const body = request.method === 'POST' ? await parsedBody(request, response) : { value: undefined }
      if (body === undefined) return
      return session.transport.handleRequest(request, response, body.value)
    }
    const missing = 'Bad Request: the Mcp-Session-Id header is required (only initialize may omit it)'
    if (request.method !== 'POST') return reject(response, 400, missing)
    const body = await parsedBody(request, response)
    if (body === undefined) return
    if (!isInitialize(body.value)) return reject(response, 400, missing)
    return openSession(request, response, body.value)
  }

  const http = createServer(
    {
      headersTimeout: limits.headersMs ?? 10_000,
      requestTimeout: limits.requestMs ?? 30_000,
      connectionsCheckingInterval: Math.min(1_000, limits.headersMs ?? 1_000),
    },
    (request, response) => {
      handle(request, response).catch(() => {
        if (!response.headersSent) reject(response, 500, 'Internal error while handling the request')
        else response.end()
      })
    },
  )
  await new Promise<void>((resolve, fail) => {
    http.once('error', fail)
    http.listen(options.port, host, () => {
      http.off('error', fail)
      resolve()
    })
  })
  const { port } = http.address() as AddressInfo
  guard = createRequestGuard({ ...options, host, port })
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${MCP_PATH}`,
    get openSessions() {
      return sessions.size
    },
    async close() {
      await sessions.closeAll()
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}
