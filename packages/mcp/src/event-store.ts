import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { InvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'

/** How much of a session's stream traffic is kept for clients that reconnect with `Last-Event-ID`. */
export interface EventReplayLimits {
  /** Events kept per session; the oldest go first. @default 500 */
  readonly events?: number
  /** Bytes of JSON kept per session; the oldest events go first. @default 1 MiB */
  readonly bytes?: number
  /** An event older than this is no longer replayed. @default 300 000 (5 minutes) */
  readonly ttlMs?: number
  /** The `retry` field of each stream's first event: how long a client waits before it reconnects. @default 1000 */
  readonly retryMs?: number
}

interface StoredEvent {
  readonly id: EventId
  readonly streamId: StreamId
  readonly message: JSONRPCMessage
  readonly bytes: number
  readonly at: number
}

/** A session's event store, with what it holds now (for tests and limits). */
export interface BoundedEventStore extends EventStore {
  getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined>
  readonly size: number
  readonly bytes: number
}

export const DEFAULT_REPLAY_EVENTS = 500
export const DEFAULT_REPLAY_BYTES = 1024 * 1024
export const DEFAULT_REPLAY_TTL_MS = 5 * 60_000

function limit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError(`serveMcp: http.replay.${name} must be a positive number (got ${value})`)
  }
  return value
}

/**
 * One session's events in memory, oldest first, within a count, a byte total and an age. A replay sends the events
 * of the same stream after the one named; an id the store no longer holds (never issued, evicted or expired) is
 * unknown, so the SDK refuses the reconnection instead of replaying a stream with a gap in it.
 */
export function createEventStore(limits: EventReplayLimits = {}, now = () => Date.now()): BoundedEventStore {
  const maxEvents = limit('events', limits.events, DEFAULT_REPLAY_EVENTS)
  const maxBytes = limit('bytes', limits.bytes, DEFAULT_REPLAY_BYTES)
  const ttlMs = limit('ttlMs', limits.ttlMs, DEFAULT_REPLAY_TTL_MS)
  const events: StoredEvent[] = []
  const byId = new Map<EventId, StoredEvent>()
  let first = 0
  let bytes = 0
  let sequence = 0

  const forget = (event: StoredEvent) => {
    if (byId.get(event.id) !== event) return
    byId.delete(event.id)
    bytes -= event.bytes
  }
  const dropOldest = () => {
    const oldest = events[first]
    if (oldest === undefined) return
    events[first] = undefined as never
    first++
    forget(oldest)
    // Compacts now and then, so the array does not grow with every event ever stored.
    if (first > 1024 && first * 2 > events.length) {
      events.splice(0, first)
      first = 0
    }
  }
  const expire = () => {
    const cutoff = now() - ttlMs
    while (first < events.length && (events[first] as StoredEvent).at < cutoff) dropOldest()
  }
  const live = (eventId: EventId): StoredEvent | undefined => {
    expire()
    return byId.get(eventId)
  }

  return {
    get size() {
      return byId.size
    },
    get bytes() {
      return bytes
    },
    async storeEvent(streamId, message) {
      expire()
      sequence++
      const id = `${sequence}`
      const size = JSON.stringify(message).length
      // An event larger than the whole budget is sent but never kept, and its stream's earlier events go too: a
      // replay from any of them would skip it.
      if (size > maxBytes) {
        for (const event of events.slice(first)) if (event.streamId === streamId) forget(event)
        return id
      }
      while (byId.size >= maxEvents || bytes + size > maxBytes) dropOldest()
      const stored = { id, streamId, message, bytes: size, at: now() }
      events.push(stored)
      byId.set(id, stored)
      bytes += size
      return id
    },
    async getStreamIdForEventId(eventId) {
      return live(eventId)?.streamId
    },
    async replayEventsAfter(lastEventId, { send }) {
      const after = live(lastEventId)
      if (after === undefined) throw new Error(`event ${JSON.stringify(lastEventId.slice(0, 64))} is not held`)
      const start = events.indexOf(after, first) + 1
      for (const event of events.slice(start)) {
        if (event.streamId === after.streamId && byId.has(event.id)) await send(event.id, event.message)
      }
      return after.streamId
    },
  }
}
