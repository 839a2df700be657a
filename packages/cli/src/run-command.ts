import { dirname, resolve } from 'node:path'
import { RUN_CODE_TOOL_NAME } from '@qilin-tools/code-mode/internal/ptc-port.js'
import type { ToolResult } from 'qilin-tools/internal/pipeline/call.js'
import { buildRuntime } from './build-runtime.js'
import type { CliCommand, CliIo } from './cli-command.js'
import { CliError, ExitCode } from './cli-error.js'
import { loadConfig } from './load-config.js'
import { mcpLogPrinter } from './mcp-log-printer.js'
import { readProgram } from './program-source.js'
import { renderContent } from './render-content.js'
import { progressLine, type SubCallRecord, subCallText, trackSubCalls } from './sub-call-tracker.js'
import { terminalApprover } from './terminal-approver.js'
import { loadTokenCounter } from './token-count.js'

const RUN_ID = 'cli-run'

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'Run a code-mode (PTC) program against the configured tools and print its output',
  usage: '<file.ts | file.py | -> [options]',
  positionals: { min: 1, max: 1 },
  options: {
    json: {
      type: 'boolean',
      description: 'Print the whole result as JSON: output, sub-calls with timings and codes, what stayed out',
    },
    lang: {
      type: 'string',
      value: 'ts|py',
      description: 'The program language (default: from the extension; ts for -)',
    },
    timeout: { type: 'string', value: 'ms', description: 'Deadline for the whole program' },
  },
  details: [
    'The program is the body of an async function: call tools as `await tools.read_file({ path })` and print',
    'or return what you need. A TypeScript file may start with `import type` lines and end with `export {}`',
    'for editor support; they are erased before it runs. `qilin-tools sdk --declarations` prints the SDK it runs',
    'against.',
    '',
    'Exit code 0 when the program succeeds, 1 when it fails, 2 for usage and configuration errors; 130, 143 or',
    '129 when SIGINT, SIGTERM or SIGHUP cancelled it.',
  ],
  async execute({ positionals, values }, io) {
    const [path = '-'] = positionals
    const timeoutMs = timeoutOf(values.timeout as string | undefined)
    const program = await readUnlessStopped(path, values.lang as string | undefined, io)
    const searched = path === '-' ? [io.cwd] : [dirname(resolve(io.cwd, path)), io.cwd]
    const loaded = loadConfig(values.config as string | undefined, searched, io.cwd)
    let asking = false
    const approver = terminalApprover(io, loaded.file ?? 'qilin.config.json', {
      asking: (active) => {
        asking = active
      },
    })
    const redraw = () => {
      if (!asking) io.status(progressLine(tracker.records, tracker.running))
    }
    const tracker = trackSubCalls(RUN_ID, redraw)
    const built = await buildRuntime(
      loaded,
      {
        mode: 'ptc',
        language: program.language,
        approver,
        // An MCP tool's progress shows beside its name in the status line; its server's log lines go to stderr.
        onMcpProgress: (progress) => {
          tracker.progressed(progress)
          redraw()
        },
        onMcpLog: mcpLogPrinter((line) => io.error(`qilin-tools: ${line}\n`)),
      },
      io,
    )
    built.runtime.on('tools/pre-execute', tracker.started, { order: -Number.MAX_VALUE })
    built.runtime.on('tools/result', tracker.observe)
    // On a terminal the line ticks, so a long call shows its time growing; elsewhere nothing is drawn.
    const ticker = io.stderrIsTty ? setInterval(redraw, 250) : undefined
    ticker?.unref()
    // On a terminal the program's lines appear as it prints them; the result then prints only what is left.
    const streamed: string[] = []
    const watching =
      io.stderrIsTty && values.json !== true
        ? built.ptcRuntime?.onProgramOutput(({ callId, line }) => {
            if (callId !== RUN_ID) return
            streamed.push(line)
            io.write(`${line}\n`)
            redraw()
          })
        : undefined
    try {
      const result = await built.runtime.execute(
        {
          id: RUN_ID,
          name: RUN_CODE_TOOL_NAME,
          arguments: {
            code: program.code,
            description: `qilin-tools run ${path}`,
            ...(timeoutMs === undefined ? {} : { timeoutMs }),
          },
        },
        { signal: io.stop },
      )
      clearInterval(ticker)
      watching?.dispose()
      io.status('')
      if (values.json === true) io.write(`${JSON.stringify(await runReport(result, tracker.records), null, 2)}\n`)
      else printOutcome(result, io, streamed)
      return result.ok ? ExitCode.ok : ExitCode.failed
    } finally {
      clearInterval(ticker)
      watching?.dispose()
      await built.close()
    }
  },
}

/** Reads the program; a stop signal while stdin is still open ends the read, so the CLI can exit. */
async function readUnlessStopped(path: string, lang: string | undefined, io: CliIo) {
  const giveUp = () => io.stdin.destroy()
  io.stop.addEventListener('abort', giveUp, { once: true })
  try {
    return await readProgram(path, lang, io.stdin)
  } catch (error) {
    if (io.stop.aborted) throw new CliError('run: stopped while reading the program from stdin', ExitCode.failed)
    throw error
  } finally {
    io.stop.removeEventListener('abort', giveUp)
  }
}

function timeoutOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  const timeoutMs = Number(text)
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new CliError(`run: --timeout needs a positive number of milliseconds (got "${text}")`)
  }
  return timeoutMs
}

/**
 * Output to stdout; a failure's first line to stderr and any captured output after it to stdout. Lines already
 * shown as the program printed them are not printed again.
 */
function printOutcome(result: ToolResult, io: CliIo, streamed: readonly string[]): void {
  const shown = streamed.map((line) => `${line}\n`).join('')
  if (result.ok) {
    const text = renderContent(result.content)
    io.write(unshown(text.endsWith('\n') ? text : `${text}\n`, shown))
    return
  }
  const [first = '', ...rest] = result.error.message.split('\n')
  if (rest.length > 0) io.write(unshown(`${rest.join('\n')}\n`, shown === '' ? '' : `${CAPTURED_OUTPUT}\n${shown}`))
  io.error(`qilin-tools: ${first}\n`)
}

/** How code mode heads the output a failed program printed (`renderFailureMessage`). */
const CAPTURED_OUTPUT = 'Captured output:'

/** `text` without the part already shown; all of it when it does not start with that part. */
function unshown(text: string, shown: string): string {
  return shown !== '' && text.startsWith(shown) ? text.slice(shown.length) : text
}

async function runReport(result: ToolResult, records: readonly SubCallRecord[]) {
  const countTokens = await loadTokenCounter()
  const metadata = result.metadata ?? {}
  return {
    ok: result.ok,
    output: result.ok ? renderContent(result.content) : undefined,
    value: result.ok ? result.value : undefined,
    error: result.ok ? undefined : result.error,
    durationMs: result.durationMs,
    subCalls: records.map(({ id, name, ok, code, durationMs }) => ({ id, name, ok, code, durationMs })),
    keptOut: {
      bytes: typeof metadata.bytesKeptOut === 'number' ? metadata.bytesKeptOut : undefined,
      tokens: records.reduce((total, record) => total + countTokens(subCallText(record)), 0),
    },
  }
}
