import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { createEventStore } from './event-store.js'

const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { n } })

async function replayed(store: ReturnType<typeof createEventStore>, after: string) {
  const sent: [string, JSONRPCMessage][] = []
  const stream = await store.replayEventsAfter(after, {
    send: async (id, message) => {
      sent.push([id, message])
    },
  })
  return { stream, sent }
}

describe('createEventStore', () => {
  it('replays the events of the same stream after the one named, in order', async () => {
    const store = createEventStore()
    const first = await store.storeEvent('a', note(1))
    await store.storeEvent('b', note(2))
    const third = await store.storeEvent('a', note(3))
    const fourth = await store.storeEvent('a', note(4))
    expect(await store.getStreamIdForEventId(first)).toBe('a')
    const { stream, sent } = await replayed(store, first)
    expect(stream).toBe('a')
    expect(sent).toEqual([
      [third, note(3)],
      [fourth, note(4)],
    ])
  })

  it('keeps at most `events` events, the oldest leaving first, and forgets their ids', async () => {
    const store = createEventStore({ events: 3 })
    const ids = []
    for (let n = 0; n < 10; n++) ids.push(await store.storeEvent('a', note(n)))
    expect(store.size).toBe(3)
    expect(await store.getStreamIdForEventId(ids[0]!)).toBeUndefined()
    await expect(replayed(store, ids[0]!)).rejects.toThrow('is not held')
    expect((await replayed(store, ids[7]!)).sent.map(([id]) => id)).toEqual([ids[8], ids[9]])
  })

  it('keeps at most `bytes` of JSON', async () => {
    const store = createEventStore({ bytes: 1000 })
    const big = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'x', params: { text: 'x'.repeat(300), n } })
    for (let n = 0; n < 50; n++) await store.storeEvent('a', big(n))
    expect(store.bytes).toBeLessThanOrEqual(1000)
    expect(store.size).toBe(2)
  })

  it('does not keep an event larger than the budget, nor its stream before it: a replay would skip it', async () => {
    const store = createEventStore({ bytes: 1000 })
    const before = await store.storeEvent('a', note(1))
    const other = await store.storeEvent('b', note(2))
    await store.storeEvent('a', { jsonrpc: '2.0', method: 'x', params: { text: 'x'.repeat(5000) } })
    expect(await store.getStreamIdForEventId(before)).toBeUndefined()
    expect(await store.getStreamIdForEventId(other)).toBe('b')
  })

  it('expires events older than `ttlMs`', async () => {
    let time = 0
    const store = createEventStore({ ttlMs: 1000 }, () => time)
    const old = await store.storeEvent('a', note(1))
    time = 600
    const recent = await store.storeEvent('a', note(2))
    time = 1200
    expect(await store.getStreamIdForEventId(old)).toBeUndefined()
    expect(await store.getStreamIdForEventId(recent)).toBe('a')
    expect(store.size).toBe(1)
  })

  it('stays within its limits under a long stream of events', async () => {
    const store = createEventStore({ events: 100 })
    for (let n = 0; n < 50_000; n++) await store.storeEvent(`s${n % 7}`, note(n))
    expect(store.size).toBe(100)
  })

  it('refuses limits that are not positive numbers', () => {
    expect(() => createEventStore({ events: 0 })).toThrow('http.replay.events must be a positive number')
    expect(() => createEventStore({ ttlMs: Number.NaN })).toThrow('http.replay.ttlMs')
  })
})
