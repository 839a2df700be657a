import { once } from 'node:events'
import type { PtcLanguage } from '../pipeline/ptc-port.js'
import type { PresentationMode } from '../registry/tool-schema.js'
import { buildRuntime } from './build-runtime.js'
import type { CliCommand } from './cli-command.js'
import { CliError, ExitCode } from './cli-error.js'
import { loadConfig } from './load-config.js'
import { terminalApprover } from './terminal-approver.js'

const LANGUAGES: Readonly<Record<string, PtcLanguage>> = { ts: 'typescript', py: 'python' }

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Serve the configured tools over MCP (stdio by default)',
  usage: '[--http <port>] [--mode native|ptc|both] [options]',
  positionals: { min: 0, max: 0 },
  options: {
    http: {
      type: 'string',
      value: 'port',
      description: 'Serve Streamable HTTP on 127.0.0.1:<port>/mcp instead of stdio',
    },
    mode: { type: 'string', value: 'native|ptc|both', description: 'What clients see (default: config, else native)' },
    lang: { type: 'string', value: 'ts|py', description: 'SDK language for ptc and both (default: config, else ts)' },
  },
  details: [
    'Calls run through the whole pipeline. A tool the approve policy asks about is put to the client as an',
    'elicitation when it supports one; otherwise the call is denied. Stops on SIGINT, SIGTERM or end of stdin.',
  ],
  async execute({ values }, io) {
    const port = portOf(values.http as string | undefined)
    const loaded = loadConfig(values.config as string | undefined, [io.cwd], io.cwd)
    const mode = modeOf((values.mode as string | undefined) ?? loaded.config.mode ?? 'native')
    const language =
      mode === 'native' ? undefined : languageOf(values.lang as string | undefined, loaded.config.language)
    const { elicitationApprover, serveMcp } = await import('../mcp/index.js')
    // stdin belongs to the MCP client, so the terminal cannot be asked: without elicitation, asking denies.
    const fallback = terminalApprover({ ...io, stdinIsTty: false }, loaded.file ?? 'qilin.config.json')
    const built = await buildRuntime(
      loaded,
      { mode, language, approver: elicitationApprover(fallback), runs: 'many' },
      io,
    )
    try {
      const serving = await serveMcp(built.runtime, {
        transport: port === undefined ? 'stdio' : { http: { port, host: '127.0.0.1' } },
        mode,
      })
      if (serving.url !== undefined) io.error(`qilin-tools: serving MCP at ${serving.url} (${mode})\n`)
      await stopped(port === undefined ? io.stdin : undefined)
      await serving.close()
      return ExitCode.ok
    } finally {
      await built.close()
    }
  },
}

/** Resolves on SIGINT, SIGTERM, or when `input` ends. */
async function stopped(input: NodeJS.ReadableStream | undefined): Promise<void> {
  const controller = new AbortController()
  const signals = ['SIGINT', 'SIGTERM'].map((signal) => once(process, signal, { signal: controller.signal }))
  const ended = input === undefined ? [] : [once(input, 'end', { signal: controller.signal })]
  await Promise.race([...signals, ...ended])
  controller.abort()
  await Promise.allSettled([...signals, ...ended])
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
