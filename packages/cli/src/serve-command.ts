import { once } from 'node:events'
import type { PtcLanguage } from '@qilin-tools/code-mode/internal/ptc-port.js'
import type { HttpAuth, McpHttpTransport, McpLogMessage, McpServing } from '@qilin-tools/mcp'
import type { PresentationMode } from 'qilin-tools/internal/registry/tool-schema.js'
import { buildRuntime } from './build-runtime.js'
import type { CliCommand, CliIo } from './cli-command.js'
import { CliError, ExitCode } from './cli-error.js'
import type { ServeConfig } from './config.js'
import { loadConfig } from './load-config.js'
import { terminalApprover } from './terminal-approver.js'

const LANGUAGES: Readonly<Record<string, PtcLanguage>> = { ts: 'typescript', py: 'python' }

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Serve the configured tools over MCP (stdio by default)',
  usage: '[--http <port> [--no-auth]] [--mode native|ptc|both] [options]',
  positionals: { min: 0, max: 0 },
  options: {
    http: {
      type: 'string',
      value: 'port',
      description: 'Serve Streamable HTTP on 127.0.0.1:<port>/mcp instead of stdio',
    },
    'no-auth': { type: 'boolean', description: 'With --http: accept clients without a bearer token (warns)' },
    mode: { type: 'string', value: 'native|ptc|both', description: 'What clients see (default: config, else native)' },
    lang: { type: 'string', value: 'ts|py', description: 'SDK language for ptc and both (default: config, else ts)' },
  },
  details: [
    'Calls run through the whole pipeline. A tool the approve policy asks about is put to the client as an',
    'elicitation when it supports one; otherwise the call is denied. Stops on SIGINT, SIGTERM, SIGHUP or end of stdin.',
    'A configured MCP server that asks for sampling or elicitation during a call is answered by the client that',
    'made the call, when it declared that capability; its progress and log messages go to that client too.',
    '',
    'Over --http, clients send "Authorization: Bearer <token>". The token is serve.token from the config, else',
    'QILIN_SERVE_TOKEN, else a new random one printed once to stderr at start. Only loopback Host and Origin',
    'headers are accepted (a bad one gets 403); add more with serve.allowedHosts and serve.allowedOrigins. Idle',
    'sessions close after serve.sessionIdleMs (default 15 minutes); at most serve.maxSessions (default 100) are open.',
  ],
  async execute({ values }, io) {
    const port = portOf(values.http as string | undefined)
    if (port === undefined && values['no-auth'] === true) throw new CliError('serve: --no-auth applies to --http only')
    const loaded = loadConfig(values.config as string | undefined, [io.cwd], io.cwd)
    const mode = modeOf((values.mode as string | undefined) ?? loaded.config.mode ?? 'native')
    const language =
      mode === 'native' ? undefined : languageOf(values.lang as string | undefined, loaded.config.language)
    const { elicitationApprover, MIN_TOKEN_LENGTH, serveMcp } = await import('@qilin-tools/mcp')
    const http =
      port === undefined
        ? undefined
        : httpServing(port, values['no-auth'] === true, loaded.config.serve ?? {}, io.env, MIN_TOKEN_LENGTH)
    // stdin belongs to the MCP client, so the terminal cannot be asked: without elicitation, asking denies.
    const fallback = terminalApprover({ ...io, stdinIsTty: false }, loaded.file ?? 'qilin.config.json')
    // Upstream servers log from their start; the serving that passes their messages on exists only afterwards.
    let forwardLog: ((message: McpLogMessage) => void) | undefined
    const built = await buildRuntime(
      loaded,
      {
        mode,
        language,
        approver: elicitationApprover(fallback),
        runs: 'many',
        onMcpLog: (message) => forwardLog?.(message),
        // An upstream's sampling and elicitation requests during a call go to the client that made the call.
        mcpInteractions: true,
      },
      io,
    )
    try {
      const serving = await serveMcp(built.runtime, {
        transport: http === undefined ? 'stdio' : { http: http.transport },
        mode,
      }).catch((error: unknown) => {
        // The config was checked field by field; what is left (an allow-list entry that is no host) is worded here.
        if (http !== undefined && error instanceof TypeError) throw new CliError(`serve --http: ${error.message}`)
        throw error
      })
      forwardLog = serving.log
      if (http !== undefined) announce(io, serving, http.source, mode)
      await stopped(io.stop, port === undefined ? io.stdin : undefined)
      await serving.close()
      return ExitCode.ok
    } finally {
      await built.close()
    }
  },
}

/** Resolves when the process is asked to stop (SIGINT, SIGTERM, SIGHUP), or when `input` ends. */
async function stopped(stop: AbortSignal, input: NodeJS.ReadableStream | undefined): Promise<void> {
  if (stop.aborted) return
  const controller = new AbortController()
  const asked = once(stop, 'abort', { signal: controller.signal })
  const ended = input === undefined ? [] : [once(input, 'end', { signal: controller.signal })]
  await Promise.race([asked, ...ended])
  controller.abort()
  await Promise.allSettled([asked, ...ended])
}

/** Where the bearer token came from: it decides what is printed. */
type TokenSource = 'config' | 'environment' | 'generated' | 'none'

/** `serve --http`'s transport from the config, the environment and `--no-auth`. */
function httpServing(
  port: number,
  noAuth: boolean,
  config: ServeConfig,
  env: NodeJS.ProcessEnv,
  minTokenLength: number,
): { readonly transport: McpHttpTransport; readonly source: TokenSource } {
  const fixed =
    config.token !== undefined
      ? { token: config.token, source: 'config' as const, name: 'serve.token' }
      : env.QILIN_SERVE_TOKEN !== undefined && env.QILIN_SERVE_TOKEN !== ''
        ? { token: env.QILIN_SERVE_TOKEN, source: 'environment' as const, name: 'QILIN_SERVE_TOKEN' }
        : undefined
  if (!noAuth && fixed !== undefined && fixed.token.length < minTokenLength) {
    throw new CliError(`serve: ${fixed.name} must be at least ${minTokenLength} characters (got ${fixed.token.length})`)
  }
  // Left out, serveMcp generates the token (32 random bytes, base64url) and reports it on the serving.
  const auth: HttpAuth | undefined = noAuth ? 'none' : fixed === undefined ? undefined : { token: fixed.token }
  const transport: McpHttpTransport = {
    port,
    host: '127.0.0.1',
    ...(auth === undefined ? {} : { auth }),
    ...(config.allowedHosts === undefined ? {} : { allowedHosts: config.allowedHosts }),
    ...(config.allowedOrigins === undefined ? {} : { allowedOrigins: config.allowedOrigins }),
    ...(config.sessionIdleMs === undefined ? {} : { sessionIdleMs: config.sessionIdleMs }),
    ...(config.maxSessions === undefined ? {} : { maxSessions: config.maxSessions }),
  }
  return { transport, source: noAuth ? 'none' : (fixed?.source ?? 'generated') }
}

/** The URL and what a client must send; a generated token is printed here, once, and never again. */
function announce(io: CliIo, serving: McpServing, source: TokenSource, mode: PresentationMode): void {
  io.error(`qilin-tools: serving MCP at ${serving.url} (${mode})\n`)
  const lines = {
    generated: `qilin-tools: clients send the header "Authorization: Bearer ${serving.token}" (a new token each start; fix one with serve.token or QILIN_SERVE_TOKEN)\n`,
    config: 'qilin-tools: clients send the header "Authorization: Bearer <serve.token from the config>"\n',
    environment: 'qilin-tools: clients send the header "Authorization: Bearer <QILIN_SERVE_TOKEN>"\n',
    none: 'qilin-tools: warning: --no-auth: any local process, and any page on an allowed origin, can call these tools\n',
  } satisfies Record<TokenSource, string>
  io.error(lines[source])
}

function portOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  const port = Number(text)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CliError(`serve: --http needs a port number from 0 to 65535 (got "${text}")`)
  }
  return port
}

function modeOf(mode: string): PresentationMode {
  if (mode === 'native' || mode === 'ptc' || mode === 'both') return mode
  throw new CliError(`serve: --mode must be native, ptc or both (got "${mode}")`)
}

function languageOf(lang: string | undefined, configured: PtcLanguage | undefined): PtcLanguage {
  if (lang === undefined) return configured ?? 'typescript'
  const language = LANGUAGES[lang]
  if (language === undefined) throw new CliError(`serve: --lang must be ts or py (got "${lang}")`)
  return language
}
