import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { createToolListingSync } from './tool-listing-sync.js'

const client = {} as Client
const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } })

function harness() {
  let live: Client | undefined
  const applied: string[][] = []
  let changes = 0
  let listings = 0
  let release: (() => void) | undefined
  const sync = createToolListingSync({
    client: () => live,
    list: async () => {
      listings++
      if (listings === 2) await new Promise<void>((resolve) => (release = resolve))
      return [tool(`t${listings}`)]
    },
    apply: (tools) => {
      applied.push(tools.map((each) => each.name))
      return true
    },
    onChanged: () => changes++,
  })
  return {
    sync,
    applied,
    connect: () => (live = client),
    changes: () => changes,
    release: () => release?.(),
  }
}

describe('the tool listing kept in step with the server', () => {
  it('a sync asked while not connected ends at once and does not stand in for the next one', async () => {
    const { sync, applied, connect } = harness()
    await sync.sync()
    connect()
    await sync.sync()
    expect(applied).toEqual([['t1']])
    expect(sync.count).toBe(1)
    // Before the fix the stale promise made this spin on the microtask queue and froze the event loop.
    await sync.settled()
  })

  it('a change announced during a listing lists once more after it, on the same promise', async () => {
    const { sync, applied, connect, changes, release } = harness()
    connect()
    await sync.sync()
    const second = sync.sync()
    await new Promise((resolve) => setImmediate(resolve))
    expect(sync.sync()).toBe(second)
    release()
    await second
    await sync.settled()
    expect(applied).toEqual([['t1'], ['t2'], ['t3']])
    expect(changes()).toBe(2)
  })
})
