import type { CliIo } from './cli-command.js'

const CLEAR_LINE = '\r\x1b[K'

/** Output errors that mean nobody reads any more: a closed pipe (`| head`), a terminal that hung up. */
const READER_GONE = new Set(['EPIPE', 'EIO', 'ECONNRESET'])
let toleratingGoneReaders = false

/** Unhandled, such an error would end the CLI on the spot, before it closed its runtime and children. */
function tolerateGoneReaders(): void {
  if (toleratingGoneReaders) return
  toleratingGoneReaders = true
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (!READER_GONE.has(error.code ?? '')) throw error
    })
  }
}

/**
 * The real process: stdout for results, stderr for failures and the live status line. `stop` is the CLI's stop
 * watch (`main.ts`); a caller that builds a runtime without running a command may leave it out.
 */
export function processIo(stop: AbortSignal = new AbortController().signal): CliIo {
  tolerateGoneReaders()
  const stderrIsTty = process.stderr.isTTY === true
  let statusShown = false
  const clearStatus = () => {
    if (!statusShown) return
    process.stderr.write(CLEAR_LINE)
    statusShown = false
  }
  return {
    cwd: process.cwd(),
    env: process.env,
    stdin: process.stdin,
    stdinIsTty: process.stdin.isTTY === true,
    stderrIsTty,
    stop,
    write(text) {
      clearStatus()
      process.stdout.write(text)
    },
    error(text) {
      clearStatus()
      process.stderr.write(text)
    },
    status(text) {
      if (!stderrIsTty) return
      const width = (process.stderr.columns || 80) - 1
      process.stderr.write(CLEAR_LINE + text.slice(0, width))
      statusShown = text !== ''
    },
  }
}
