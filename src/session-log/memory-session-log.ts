import type { SessionLog, SessionLogRecord } from './session-log.js'

export interface MemorySessionLog extends SessionLog {
  /** Every record so far, oldest first. */
  readonly records: readonly SessionLogRecord[]
  clear(): void
}

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
