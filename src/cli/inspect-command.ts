import { once } from 'node:events'
import { stat } from 'node:fs/promises'
import { basename, resolve } from 'node:path'
import { buildRuntime, type CliRuntime } from './build-runtime.js'
import type { CliCommand } from './cli-command.js'
import { CliError, ExitCode } from './cli-error.js'
import { startInspector } from './inspect/inspect-server.js'
import { runtimeCards } from './inspect/runtime-cards.js'
import { loadConfig } from './load-config.js'
import { loadTokenCounter } from './token-count.js'

export const inspectCommand: CliCommand = {
  name: 'inspect',
  summary: 'Show a session log in a local web page: calls, programs, errors, approvals',
  usage: '<session.jsonl> [--port <n>] [--live] [options]',
  positionals: { min: 1, max: 1 },
  options: {
    port: { type: 'string', value: 'n', description: 'Listen on 127.0.0.1:<n> (default: a free port)' },
    live: { type: 'boolean', description: 'Follow the log as it grows and show new calls as they come' },
    cards: {
      type: 'boolean',
      description: "Draw the cards of the configured tools' presentCall/presentResult (starts the config's servers)",
    },
  },
  details: [
    'The page is served on 127.0.0.1 only, under a random token in its URL, printed once to stderr; a request',
    'without the token gets 404. It needs nothing from the network. Stops on SIGINT, SIGTERM or SIGHUP.',
  ],
  async execute({ positionals, values }, io) {
    const path = resolve(io.cwd, positionals[0] ?? '')
    const file = await stat(path).catch(() => undefined)
    if (file === undefined || !file.isFile()) throw new CliError(`inspect: ${positionals[0]} is not a file`)
    const port = portOf(values.port as string | undefined)
    let built: CliRuntime | undefined
    if (values.cards === true) {
      const loaded = loadConfig(values.config as string | undefined, [io.cwd], io.cwd)
      built = await buildRuntime(loaded, { mode: 'native', language: undefined }, io)
    }
    try {
      const inspector = await startInspector({
        path,
        port,
        live: values.live === true,
        countTokens: await loadTokenCounter(),
        ...(built === undefined ? {} : { present: runtimeCards(built.runtime) }),
      })
      io.error(`qilin-tools: inspecting ${basename(path)} at ${inspector.url}\n`)
      if (!io.stop.aborted) await once(io.stop, 'abort')
      await inspector.close()
      return ExitCode.ok
    } finally {
      await built?.close()
    }
  },
}

function portOf(text: string | undefined): number {
  if (text === undefined) return 0
  const port = Number(text)
  if (!/^\d{1,5}$/.test(text) || port > 65_535) {
    throw new CliError(`inspect: --port needs a port number from 0 to 65535 (got "${text.slice(0, 40)}")`)
  }
  return port
}
