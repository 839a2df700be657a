import { once } from 'node:events'
import { createInterface } from 'node:readline'
import type { Approver } from 'qilin-tools/internal/pipeline/pipeline-events.js'
import type { CliIo } from './cli-command.js'

const PREVIEW_CHARACTERS = 400

/**
 * Asks on the terminal, one question at a time, when both stdin and stderr are terminals; otherwise denies
 * and says how to allow the tool in the config.
 */
export function terminalApprover(io: CliIo, configName: string): Approver {
  let queue: Promise<unknown> = Promise.resolve()
  return (request) => {
    const name = request.call.name
    if (!io.stdinIsTty || !io.stderrIsTty) {
      return {
        approved: false,
        reason: `${name} needs approval and no terminal is attached to ask; allow it with "approve": { "${name}": "allow" } in ${configName}`,
      }
    }
    const question = `Allow ${name} ${preview(request.call.arguments)}? [y/N] `
    const answer = queue.then(() => ask(io, question, request.signal))
    queue = answer.catch(() => undefined)
    return answer.then((text) =>
      /^y(es)?$/i.test(text.trim()) ? true : { approved: false, reason: `the user did not approve this ${name} call` },
    )
  }
}

async function ask(io: CliIo, question: string, signal: AbortSignal): Promise<string> {
  io.status('')
  io.error(question)
  const lines = createInterface({ input: io.stdin, terminal: false })
  try {
    const [line] = (await once(lines, 'line', { signal })) as [string]
    return line
  } finally {
    lines.close()
  }
}

function preview(args: unknown): string {
  const text = JSON.stringify(args)
  return text.length > PREVIEW_CHARACTERS ? `${text.slice(0, PREVIEW_CHARACTERS)}…` : text
}
