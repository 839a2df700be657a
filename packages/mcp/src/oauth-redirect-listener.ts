import { randomBytes } from 'node:crypto'
import { createServer, type ServerResponse } from 'node:http'
import { McpAuthorizationError, McpAuthorizationErrorCode } from './oauth-error.js'

/** A one-shot loopback listener the authorization server redirects the browser back to. */
export interface RedirectListener {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly redirectUrl: string
  /** The `state` this flow sends; a redirect carrying any other is refused. */
  readonly state: string
  /** The authorization code of the first redirect; rejects on a state mismatch, an `error`, the timeout or abort. */
  readonly code: Promise<string>
  /** Stops listening (after the first redirect this has happened already). */
  close(): void
}

const CALLBACK_PATH = '/callback'
/** Longer than any authorization code we have seen by two orders of magnitude. */
const MAX_CODE_LENGTH = 4096
const MAX_DETAIL_LENGTH = 200

function page(response: ServerResponse, status: number, text: string) {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'close',
  })
  response.end(`${text}\n`)
}

/** A server-chosen string as one short line of printable characters, so it cannot forge lines in a terminal. */
function printable(text: string): string {
  const line = text.replace(/[^\x20-\x7e]/g, '?')
  return line.length > MAX_DETAIL_LENGTH ? `${line.slice(0, MAX_DETAIL_LENGTH)}…` : line
}

/**
 * Listens on 127.0.0.1 at `port` (default: one the system picks), for one redirect to `/callback` carrying this flow's `state`.
 * Other paths get a 404 and the wait goes on (a browser asks for a favicon); the first redirect to `/callback`
 * settles the flow either way and the listener closes. Gives up after `timeoutMs` or when `signal` aborts.
 */
export async function openRedirectListener(options: {
  readonly timeoutMs: number
  /** Default 0: a port the system picks. */
  readonly port?: number
  readonly signal?: AbortSignal
}): Promise<RedirectListener> {
  const state = randomBytes(24).toString('base64url')
  let settle: { resolve(code: string): void; reject(error: Error): void } | undefined
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject }
  })
  code.catch(() => {})
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH) return page(response, 404, 'Not found.')
    const returned = url.searchParams
    if (returned.get('state') !== state) {
      page(response, 400, 'This authorization response does not belong to the sign-in in progress. It was refused.')
      return finish(
        new McpAuthorizationError(
          McpAuthorizationErrorCode.STATE_MISMATCH,
          'the OAuth redirect carried a state this client did not send; the authorization was refused',
        ),
      )
    }
    const error = returned.get('error')
    const received = returned.get('code')
    if (error !== null || received === null || received === '' || received.length > MAX_CODE_LENGTH) {
      page(response, 400, 'The authorization did not complete. You can close this tab.')
      const description = returned.get('error_description')
      const why =
        error === null
          ? 'without a usable authorization code'
          : `with error "${printable(error)}"${description === null ? '' : ` (${printable(description)})`}`
      return finish(
        new McpAuthorizationError(
          McpAuthorizationErrorCode.AUTHORIZATION_DENIED,
          `the authorization server redirected back ${why}`,
        ),
      )
    }
    page(response, 200, 'Authorized. You can close this tab and return to qilin-tools.')
    finish(undefined, received)
  })
  server.requestTimeout = 10_000
  server.headersTimeout = 10_000

  const timer = setTimeout(
    () =>
      finish(
        new McpAuthorizationError(
          McpAuthorizationErrorCode.AUTHORIZATION_TIMEOUT,
          `nobody completed the OAuth authorization in the browser within ${options.timeoutMs} ms`,
        ),
      ),
    options.timeoutMs,
  )
  const onAbort = () =>
    finish(
      new McpAuthorizationError(
        McpAuthorizationErrorCode.AUTHORIZATION_TIMEOUT,
        'the OAuth authorization was given up',
        {
          cause: options.signal?.reason,
        },
      ),
    )
  options.signal?.addEventListener('abort', onAbort, { once: true })

  let done = false
  function finish(error: Error | undefined, received?: string) {
    if (done) return
    done = true
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
    server.close()
    // Lets the page above go out first; keep-alive sockets would otherwise hold the port open.
    setImmediate(() => server.closeAllConnections())
    if (error === undefined) settle?.resolve(received as string)
    else settle?.reject(error)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  if (options.signal?.aborted === true) onAbort()
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return {
    redirectUrl: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    state,
    code,
    close: () =>
      finish(new McpAuthorizationError(McpAuthorizationErrorCode.AUTHORIZATION_TIMEOUT, 'the OAuth flow was closed')),
  }
}
