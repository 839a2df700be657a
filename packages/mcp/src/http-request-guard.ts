import type { IncomingHttpHeaders } from 'node:http'
import { InvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'

/** Who may reach `serve --http`, besides the loopback names and the bound address. */
export interface RequestGuardOptions {
  /** The address the server listens on (`127.0.0.1`, `::1`, `0.0.0.0`, a name…). */
  readonly host: string
  /** The port it listens on (after `0` was resolved). */
  readonly port: number
  /** `Host` values: `name` accepts that name on any port, `name:port` only that port. */
  readonly allowedHosts?: readonly string[]
  /** `Origin` values, `scheme://host[:port]`, compared after normalising (case, default port, trailing slash). */
  readonly allowedOrigins?: readonly string[]
}

/** A refused header, worded for the 403 body. */
export interface GuardRejection {
  readonly header: 'host' | 'origin'
  readonly message: string
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']
/** Binding every interface names no host: `Host: 0.0.0.0` is what a page aiming at "0.0.0.0 day" sends. */
const WILDCARDS = new Set(['0.0.0.0', '[::]'])

/** `::1` becomes `[::1]`, as it appears in a `Host` header and an origin. */
function bracketed(host: string): string {
  const lower = host.toLowerCase()
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower
}

/** Splits `name[:port]` (with bracketed IPv6), lower-cased; undefined when it is not a host at all. */
function parseHost(value: string): { readonly name: string; readonly port: string | undefined } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^\s:[\]/@?#]+)(?::(\d{1,5}))?$/i.exec(value.trim())
  if (match === null) return undefined
  return { name: match[1]!.toLowerCase(), port: match[2] }
}

function normaliseOrigin(value: string): string | undefined {
  try {
    const url = new URL(value)
    if (url.origin === 'null') return undefined
    return url.origin
  } catch {
    return undefined
  }
}

/**
 * DNS-rebinding protection for the Streamable HTTP endpoint (MCP transport security: servers validate `Origin`,
 * and bind to loopback). The `Host` header is required and must name a loopback name or the bound address with the
 * bound port, or an allowed host: a rebound page sends its own domain there. A present `Origin` must be a loopback
 * origin on the bound port or an allowed origin; `Origin: null` is refused. A missing `Origin` is accepted, since
 * non-browser clients send none and browsers send one on every request that could change anything (any POST,
 * DELETE, or cross-origin GET); a same-origin GET from a rebound page still carries the rebound `Host`.
 */
export function createRequestGuard(
  options: RequestGuardOptions,
): (headers: IncomingHttpHeaders) => GuardRejection | undefined {
  const port = String(options.port)
  const bound = bracketed(options.host)
  const names = new Set([...LOOPBACK_NAMES, ...(WILDCARDS.has(bound) ? [] : [bound])])
  const anyPort = new Set<string>()
  const exact = new Set<string>()
  for (const name of names) exact.add(`${name}:${port}`)
  if (port === '80') for (const name of names) exact.add(name)
  for (const entry of options.allowedHosts ?? []) {
    const parsed = parseHost(entry)
    if (parsed === undefined) throw new InvalidArgumentError(`allowedHosts: "${entry}" is not a host name or name:port`)
    if (parsed.port === undefined) anyPort.add(parsed.name)
    else exact.add(`${parsed.name}:${Number(parsed.port)}`)
  }
  const origins = new Set([...names].map((name) => `http://${name}:${port}`))
  for (const entry of options.allowedOrigins ?? []) {
    const origin = normaliseOrigin(entry)
    if (origin === undefined)
      throw new InvalidArgumentError(`allowedOrigins: "${entry}" is not an origin (scheme://host[:port])`)
    origins.add(origin)
  }
  const hostAllowed = (value: string | undefined) => {
    const parsed = value === undefined ? undefined : parseHost(value)
    if (parsed === undefined) return false
    if (anyPort.has(parsed.name)) return true
    return exact.has(parsed.port === undefined ? parsed.name : `${parsed.name}:${Number(parsed.port)}`)
  }
  return (headers) => {
    const host = headers.host
    if (!hostAllowed(host)) {
      return {
        header: 'host',
        message: `Forbidden: Host header ${host === undefined ? '(missing)' : JSON.stringify(host.slice(0, 200))} is not allowed (see allowedHosts)`,
      }
    }
    const origin = headers.origin
    if (origin === undefined) return undefined
    const normalised = normaliseOrigin(origin)
    if (normalised !== undefined && origins.has(normalised)) return undefined
    return {
      header: 'origin',
      message: `Forbidden: Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed (see allowedOrigins)`,
    }
  }
}
