/** What the table keeps per session: something it can close. */
export interface SessionEntry {
  close(): Promise<void>
}

export interface SessionTableOptions {
  /** A session with no request in flight for this long is closed. */
  readonly idleMs: number
  /** Sessions open (or opening) at once. */
  readonly maxSessions: number
}

export interface SessionTable<Entry extends SessionEntry> {
  /** Open or opening sessions. */
  readonly size: number
  /** Holds a place for a session about to open; undefined when the table is full. Release it if opening fails. */
  reserve(): { admit(id: string, entry: Entry): void; release(): void } | undefined
  get(id: string): Entry | undefined
  /** Marks a request of session `id` as in flight; the returned function marks it done. Idle time starts then. */
  busy(id: string): () => void
  /** Forgets `id` without closing it (the session closed itself). */
  forget(id: string): void
  closeAll(): Promise<void>
}

interface Slot<Entry> {
  readonly entry: Entry
  inFlight: number
  timer: NodeJS.Timeout | undefined
}

/**
 * Sessions by id with idle expiry and a cap. A session is idle while none of its requests (a GET stream included)
 * is open; after `idleMs` of that it is closed and dropped. Timers are unref'd, so they never keep the process up.
 */
export function createSessionTable<Entry extends SessionEntry>(options: SessionTableOptions): SessionTable<Entry> {
  const slots = new Map<string, Slot<Entry>>()
  let reserved = 0

  const expire = (id: string, slot: Slot<Entry>) => {
    if (slots.get(id) !== slot) return
    slots.delete(id)
    slot.entry.close().catch(() => {})
  }
  const arm = (id: string, slot: Slot<Entry>) => {
    slot.timer = setTimeout(() => expire(id, slot), options.idleMs)
    slot.timer.unref()
  }
  const disarm = (slot: Slot<Entry>) => {
    if (slot.timer !== undefined) clearTimeout(slot.timer)
    slot.timer = undefined
  }

  return {
    get size() {
      return slots.size + reserved
    },
    reserve() {
      if (slots.size + reserved >= options.maxSessions) return undefined
      reserved++
      let settled = false
      const settle = () => {
        if (settled) return false
        settled = true
        reserved--
        return true
      }
      return {
        admit(id, entry) {
          if (!settle()) return
          const slot: Slot<Entry> = { entry, inFlight: 0, timer: undefined }
          slots.set(id, slot)
          arm(id, slot)
        },
        release() {
          settle()
        },
      }
    },
    get: (id) => slots.get(id)?.entry,
    busy(id) {
      const slot = slots.get(id)
      if (slot === undefined) return () => {}
      slot.inFlight++
      disarm(slot)
      let done = false
      return () => {
        if (done) return
        done = true
        slot.inFlight--
        if (slot.inFlight === 0 && slots.get(id) === slot) arm(id, slot)
      }
    },
    forget(id) {
      const slot = slots.get(id)
      if (slot === undefined) return
      disarm(slot)
      slots.delete(id)
    },
    async closeAll() {
      const all = [...slots.values()]
      slots.clear()
      for (const slot of all) disarm(slot)
      await Promise.all(all.map((slot) => slot.entry.close().catch(() => {})))
    },
  }
}
