import { randomBytes, timingSafeEqual } from 'node:crypto'
import { type FSWatcher, watch } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { basename } from 'node:path'
import type { CardIntent } from '../../definition/tool-definition.js'
import { createRequestGuard } from '../../mcp/http-request-guard.js'
import type { TokenCounter } from '../token-count.js'
import { readLog } from './follow-log.js'
import { type CallRecord, SessionModel } from './session-model.js'

/** The cards a tool's `presentCall`/`presentResult` describe for one logged call. */
export type CardPresenter = (call: CallRecord) => { readonly call?: CardIntent; readonly result?: CardIntent }

/** What `startInspector` serves. */
export interface InspectorOptions {
  /** The JSON Lines session log. */
  readonly path: string
  /** `0` picks a free port. */
  readonly port: number
  /** Follow the log as it grows and push new calls to open pages (server-sent events). */
  readonly live: boolean
  readonly countTokens: TokenCounter
  readonly present?: CardPresenter
  /** How often `live` looks for appended lines besides file-system events. */
  readonly pollMs?: number
}

/** A running inspector: its URL (token included) and how to stop it. */
export interface Inspector {
  readonly url: string
  readonly token: string
  close(): Promise<void>
}

/** The page's files, by the path after the token: plain HTML, CSS and ES modules, nothing fetched from elsewhere. */
const PAGE_FILES: Readonly<Record<string, string>> = {
  '': 'index.html',
  'inspector.css': 'inspector.css',
  'inspector.js': 'inspector.js',
  'detail.js': 'detail.js',
  'cards.js': 'cards.js',
  'json-view.js': 'json-view.js',
  'dom.js': 'dom.js',
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
}

/** More open pages than a person uses; each holds a stream, so they are counted. */
const MAX_EVENT_STREAMS = 32

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
}

/**
 * Serves the inspector page for one session log on 127.0.0.1. Every path starts with a random token: without it a
 * request gets 404, and a `Host` other than the loopback address and port gets 403 (a rebound DNS name).
 */
export async function startInspector(options: InspectorOptions): Promise<Inspector> {
  const model = new SessionModel(options.countTokens)
  const reader = readLog(options.path)
  const pages = await loadPage()
  const ingest = async () => {
    const { lines, reset } = await reader.readMore()
    if (reset) model.reset()
    const changed = new Set<number>()
    const malformedBefore = model.malformed.length
    for (const line of lines) for (const index of model.add(line)) changed.add(index)
    return { reset, changed: [...changed].sort((left, right) => left - right), malformedFrom: malformedBefore }
  }
  await ingest()

  const token = randomBytes(24).toString('base64url')
  const streams = new Set<ServerResponse>()
  const server = createServer((request, response) => {
    let reply: Reply | 'stream'
    try {
      reply = route(request)
    } catch {
      reply = text(500, 'internal error')
    }
    if (reply === 'stream') openStream(response)
    else send(response, reply)
  })
  server.listen(options.port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  const port = (server.address() as AddressInfo).port
  const guard = createRequestGuard({ host: '127.0.0.1', port })

  /** What to answer, or `stream` for the live event stream; nothing here writes to the response. */
  function route(request: IncomingMessage): Reply | 'stream' {
    const rejection = guard(request.headers)
    if (rejection !== undefined) return text(403, rejection.message)
    const path = (request.url ?? '').split('?')[0]!
    const [, first = '', ...rest] = path.split('/')
    if (!tokenMatches(first, token)) return text(404, 'not found')
    if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'method not allowed')
    if (rest.length === 0) return { status: 308, type: 'text/plain; charset=utf-8', body: '', location: `/${token}/` }
    const tail = rest.join('/')
    const page = Object.hasOwn(PAGE_FILES, tail) ? PAGE_FILES[tail]! : undefined
    if (page !== undefined) return { status: 200, type: CONTENT_TYPES[page.split('.').pop()!]!, body: pages.get(page)! }
    if (tail === 'api/session') {
      const session = {
        file: basename(options.path),
        live: options.live,
        calls: model.summaries(),
        malformed: model.malformed,
        malformedCount: model.malformedCount,
      }
      return { status: 200, type: 'application/json', body: JSON.stringify(session) }
    }
    const detail = /^api\/call\/(\d{1,9})$/.exec(tail)
    if (detail !== null) {
      const call = model.calls[Number(detail[1])]
      if (call === undefined) return text(404, 'no such call')
      return { status: 200, type: 'application/json', body: JSON.stringify({ ...call, cards: cardsOf(call) }) }
    }
    if (tail === 'api/events' && options.live) {
      return streams.size < MAX_EVENT_STREAMS ? 'stream' : text(503, 'too many open inspector pages')
    }
    return text(404, 'not found')
  }

  function cardsOf(call: CallRecord) {
    if (options.present === undefined) return {}
    try {
      return options.present(call)
    } catch {
      return {}
    }
  }

  function openStream(response: ServerResponse): void {
    response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream', connection: 'keep-alive' })
    response.write(': following\n\n')
    streams.add(response)
    response.on('close', () => streams.delete(response))
  }

  const broadcast = (payload: unknown) => {
    const frame = `data: ${JSON.stringify(payload)}\n\n`
    for (const stream of streams) stream.write(frame)
  }

  let watcher: FSWatcher | undefined
  let poll: NodeJS.Timeout | undefined
  let following = Promise.resolve()
  const follow = () => {
    following = following.then(async () => {
      try {
        const { reset, changed, malformedFrom } = await ingest()
        const malformed = model.malformed.slice(malformedFrom)
        if (reset) broadcast({ reset: true })
        if (reset || changed.length > 0 || malformed.length > 0) {
          broadcast({
            calls: reset ? model.summaries() : model.summaries(changed),
            malformed,
            malformedCount: model.malformedCount,
          })
        }
      } catch {
        // The file may be gone for a moment (rotated, rewritten); the next look tries again.
      }
    })
  }
  if (options.live) {
    try {
      watcher = watch(options.path, { persistent: false }, follow)
      watcher.on('error', () => {})
    } catch {
      // Polling alone still follows the file.
    }
    poll = setInterval(follow, options.pollMs ?? 500)
    poll.unref()
  }

  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    token,
    async close() {
      watcher?.close()
      if (poll !== undefined) clearInterval(poll)
      for (const stream of streams) stream.end()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
      await following
    },
  }
}

interface Reply {
  readonly status: number
  readonly type: string
  readonly body: string | Buffer
  readonly location?: string
}

function text(status: number, body: string): Reply {
  return { status, type: 'text/plain; charset=utf-8', body }
}

function send(response: ServerResponse, reply: Reply): void {
  const headers = { ...SECURITY_HEADERS, 'content-type': reply.type }
  response.writeHead(reply.status, reply.location === undefined ? headers : { ...headers, location: reply.location })
  response.end(reply.body)
}

function tokenMatches(given: string, token: string): boolean {
  const left = Buffer.from(given)
  const right = Buffer.from(token)
  return left.length === right.length && timingSafeEqual(left, right)
}

async function loadPage(): Promise<Map<string, Buffer>> {
  const files = Object.values(PAGE_FILES)
  const contents = await Promise.all(files.map((file) => readFile(new URL(`./page/${file}`, import.meta.url))))
  return new Map(files.map((file, index) => [file, contents[index]!]))
}
