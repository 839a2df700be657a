import type { SessionLogRecord, ToolCallSettledRecord } from '../session-log/session-log.js'
import type { ToolStore } from './approval-store.js'

/** One call of an interrupted program, as the log tells it. */
export interface LoggedSubCall {
  readonly id: string
  readonly name: string
}

/**
 * A call whose process died while one of its calls waited in memory for the approver: the log has its waiting
 * record and no settlement. For a code-mode program, `id` is the `run_code` call, `waitingOn` the sub-calls that
 * were waiting and `settled` those that had finished (each settled record is in the log, with its result).
 */
export interface InterruptedCall {
  readonly id: string
  readonly name: string
  readonly agentId?: string
  readonly waitingOn: readonly LoggedSubCall[]
  readonly settled: readonly (LoggedSubCall & { readonly ok: boolean })[]
}

/**
 * Reads a session log (a store's, or a JSON Lines file's via `readJsonlSessionLog`) for calls left half-told by a
 * process that died while a call waited for approval. Call it only when no live process is still running calls of
 * this log: a call that is waiting right now looks the same.
 */
export function findInterruptedCalls(records: readonly SessionLogRecord[]): InterruptedCall[] {
  const settled = new Set<string>()
  const started = new Map<string, SessionLogRecord>()
  for (const record of records) {
    if (record.type === 'tool.call.settled') settled.add(record.id)
    else if (record.type === 'tool.call.started' && !started.has(record.id)) started.set(record.id, record)
  }
  const waiting = new Map<string, LoggedSubCall[]>()
  for (const record of records) {
    if (record.type !== 'tool.call.waiting' || settled.has(record.id)) continue
    const top = record.parentId ?? record.id
    if (settled.has(top)) continue
    const list = waiting.get(top) ?? []
    list.push({ id: record.id, name: record.name })
    waiting.set(top, list)
  }
  const found: InterruptedCall[] = []
  for (const [id, waitingOn] of waiting) {
    const opened = started.get(id)
    const subCalls = records.filter(
      (record): record is ToolCallSettledRecord => record.type === 'tool.call.settled' && record.parentId === id,
    )
    found.push({
      id,
      name: opened?.name ?? waitingOn[0]!.name,
      ...(opened?.agentId === undefined ? {} : { agentId: opened.agentId }),
      waitingOn,
      settled: subCalls.map((record) => ({ id: record.id, name: record.name, ok: record.ok })),
    })
  }
  return found
}

/**
 * Settles every interrupted call of the store's log (see `findInterruptedCalls`) as `INTERRUPTED`: each waiting
 * sub-call, then the call itself, whose message names what was waiting and which sub-calls had settled. Nothing is
 * run again. Returns what it settled; a second run finds nothing.
 */
export async function recoverInterruptedCalls(
  store: Pick<ToolStore, 'readSessionLog' | 'append'>,
): Promise<InterruptedCall[]> {
  const interrupted = findInterruptedCalls(await store.readSessionLog())
  for (const call of interrupted) {
    const agentId = call.agentId === undefined ? {} : { agentId: call.agentId }
    for (const sub of call.waitingOn) {
      if (sub.id === call.id) continue
      await store.append(
        interruptedRecord(sub.id, sub.name, waitingMessage(sub.name), { ...agentId, parentId: call.id }),
      )
    }
    await store.append(interruptedRecord(call.id, call.name, interruptedMessage(call), agentId))
  }
  return interrupted
}

function interruptedRecord(
  id: string,
  name: string,
  message: string,
  where: { readonly agentId?: string; readonly parentId?: string },
): ToolCallSettledRecord {
  const error = { code: 'INTERRUPTED' as const, message }
  return {
    type: 'tool.call.settled',
    id,
    name,
    ok: false,
    content: [{ type: 'text', text: `Error: ${message}` }],
    error,
    durationMs: 0,
    ...where,
    at: Date.now(),
  }
}

function waitingMessage(name: string): string {
  return `The call to ${name} was interrupted: the process stopped while it waited for approval. It did not run.`
}

/** Names are tool names (at most 64 characters); the lists are cut at 20 so a huge program stays one short line. */
function interruptedMessage(call: InterruptedCall): string {
  const names = (calls: readonly LoggedSubCall[]) =>
    calls.length <= 20
      ? calls.map((sub) => `${sub.name} (${sub.id})`).join(', ')
      : `${calls
          .slice(0, 20)
          .map((sub) => `${sub.name} (${sub.id})`)
          .join(', ')} and ${calls.length - 20} more`
  const waiting = call.waitingOn.filter((sub) => sub.id !== call.id)
  if (waiting.length === 0) {
    return `The call to ${call.name} was interrupted: the process stopped while it waited for approval. It did not run.`
  }
  const settled =
    call.settled.length === 0 ? 'none of its calls had settled' : `its settled calls were ${names(call.settled)}`
  return (
    `The call to ${call.name} was interrupted: the process stopped while it waited for approval of ` +
    `${names(waiting)}; ${settled}. It is not run again.`
  )
}
