import { once } from 'node:events'
import { createInterface } from 'node:readline'
import type { Approver } from '../pipeline/pipeline-events.js'
import type { CliIo } from './cli-command.js'

const PREVIEW_CHARACTERS = 400

/** Who decided, as the session log and spans name them. */
const DECIDED_BY = 'terminal'

/**
 * Asks on the terminal, one question at a time, when both stdin and stderr are terminals; otherwise denies
 * and says how to allow the tool in the config. Answering `a` allows that tool for the rest of this runtime's
 * life (one `run`) without asking again.
 */
export function terminalApprover(
  io: CliIo,
  configName: string,
  hooks: { readonly asking?: (active: boolean) => void } = {},
): Approver {
  let queue: Promise<unknown> = Promise.resolve()
  const always = new Set<string>()
  return (request) => {
    const name = request.call.name
    if (always.has(name)) return { approved: true, decidedBy: `${DECIDED_BY} (always for this run)` }
    if (!io.stdinIsTty || !io.stderrIsTty) {
      return {
        approved: false,
        reason: `${name} needs approval and no terminal is attached to ask; allow it with "approve": { "${name}": "allow" } in ${configName}`,
      }
    }
    const question = `Allow ${name} ${preview(request.call.arguments)}? [y/N/a = always ${name} in this run] `
    // A call queued behind the question that answered `a` for its tool is allowed without asking.
    const answer = queue.then(() => (always.has(name) ? 'always' : ask(io, question, request.signal, hooks.asking)))
    queue = answer.catch(() => undefined)
    return answer.then((text) => {
      const reply = text.trim()
      if (/^a(lways)?$/i.test(reply)) {
        always.add(name)
        return { approved: true, decidedBy: `${DECIDED_BY} (always for this run)` }
      }
      if (/^y(es)?$/i.test(reply)) return { approved: true, decidedBy: DECIDED_BY }
      return { approved: false, reason: `the user did not approve this ${name} call`, decidedBy: DECIDED_BY }
    })
  }
}

/** `asking` is told while the question is on screen, so a live status line does not overwrite it. */
async function ask(
  io: CliIo,
  question: string,
  signal: AbortSignal,
  asking: ((active: boolean) => void) | undefined,
): Promise<string> {
  asking?.(true)
  io.status('')
  io.error(question)
  const lines = createInterface({ input: io.stdin, terminal: false })
  try {
    const [line] = (await once(lines, 'line', { signal })) as [string]
    return line
  } finally {
    lines.close()
    asking?.(false)
  }
}

function preview(args: unknown): string {
  const text = JSON.stringify(args)
  return text.length > PREVIEW_CHARACTERS ? `${text.slice(0, PREVIEW_CHARACTERS)}…` : text
}
