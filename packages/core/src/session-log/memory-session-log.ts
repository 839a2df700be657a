import type { SessionLog, SessionLogRecord } from './session-log.js'

/** A session log kept in memory, for tests and short-lived hosts. */
export interface MemorySessionLog extends SessionLog {
  /** Every record so far, oldest first. */
  readonly records: readonly SessionLogRecord[]
  clear(): void
}

/** Creates an empty in-memory session log. */
export function createMemorySessionLog(): MemorySessionLog {
  const records: SessionLogRecord[] = []
  return {
    records,
    append(record) {
      records.push(record)
    },
    clear() {
      records.length = 0
    },
  }
}
