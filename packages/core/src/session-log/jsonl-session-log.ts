import { type FileHandle, open } from 'node:fs/promises'
import type { SessionLog, SessionLogRecord } from './session-log.js'

/** A session log appended to a JSON Lines file, with flush and close. */
export interface JsonlSessionLog extends SessionLog {
  readonly path: string
  /** Resolves once every record appended so far is on disk. */
  flush(): Promise<void>
  /** Flushes, then closes the file. Appending afterwards rejects. */
  close(): Promise<void>
}

interface Waiter {
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

/**
 * An append-only JSON Lines log. Records are written in batches (group commit): a batch holding a settled record is
 * followed by `fdatasync` before that record's `append` resolves, so every result a caller has received is on disk,
 * and a process killed mid-run loses at most records whose calls had not settled yet. A file left with a torn last
 * line by an earlier crash gets a newline before new records, so the torn fragment stays on a line of its own.
 */
export function createJsonlSessionLog(path: string): JsonlSessionLog {
  let pending: string[] = []
  let waiters: Waiter[] = []
  let syncNeeded = false
  let draining: Promise<void> | undefined
  let closed = false
  const handle = openForAppend(path)
  handle.catch(() => {})

  const drain = async () => {
    const file = await handle
    while (pending.length > 0 || syncNeeded) {
      const text = pending.join('')
      const batch = waiters
      const sync = syncNeeded
      pending = []
      waiters = []
      syncNeeded = false
      try {
        if (text.length > 0) await file.appendFile(text)
        if (sync) await file.datasync()
        for (const waiter of batch) waiter.resolve()
      } catch (error) {
        for (const waiter of batch) waiter.reject(error)
      }
    }
  }

  const schedule = (): Promise<void> => {
    if (draining === undefined) {
      draining = drain().finally(() => {
        draining = undefined
        if (pending.length > 0 || syncNeeded) void schedule().catch(() => {})
      })
    }
    return draining
  }

  const durable = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      waiters.push({ resolve, reject })
      syncNeeded = true
      schedule().catch(reject)
    })

  return {
    path,
    append(record: SessionLogRecord) {
      if (closed) return Promise.reject(new Error(`session log ${path} is closed`))
      pending.push(`${JSON.stringify(record)}\n`)
      if (durableTypes.has(record.type)) return durable()
      schedule().catch(() => {})
    },
    flush: durable,
    async close() {
      if (closed) return
      await durable()
      closed = true
      await (await handle).close()
    },
  }
}

/** Records a caller waits on: a result it was given, or a wait a crash must not leave untold. */
const durableTypes = new Set<SessionLogRecord['type']>(['tool.call.settled', 'tool.call.waiting', 'tool.call.pending'])

async function openForAppend(path: string): Promise<FileHandle> {
  const file = await open(path, 'a+')
  const { size } = await file.stat()
  if (size > 0) {
    const last = Buffer.alloc(1)
    await file.read(last, 0, 1, size - 1)
    if (last[0] !== 0x0a) await file.appendFile('\n')
  }
  return file
}
