import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { describe, expect, it } from 'vitest'
import { createUpstreamCatalog } from './upstream-catalog.js'

/** Just enough of a client for the catalog: the declared capabilities and one resource listing. */
function stubClient(capabilities: { resources?: object }) {
  let listings = 0
  const client = {
    getServerCapabilities: () => capabilities,
    listResources: async () => {
      listings += 1
      return { resources: [{ uri: 'memo://one', name: 'one' }] }
    },
    listResourceTemplates: async () => ({ resourceTemplates: [] }),
  }
  return { client: client as unknown as Client, listings: () => listings }
}

function catalogOver(current: () => Client | undefined) {
  return createUpstreamCatalog({
    server: 'stub',
    prefix: undefined,
    requestTimeoutMs: 1000,
    listTimeoutMs: 1000,
    maxContentBytes: undefined,
    client: current,
    onProblem: () => {},
  })
}

describe('createUpstreamCatalog', () => {
  it('a sync with nothing declared leaves the catalog free to read the next declared listing', async () => {
    // A sync with nothing pending used to keep its finished promise as "syncing" forever: the next sync returned
    // it without reading, and settled() spun on it without yielding to the event loop.
    const bare = stubClient({})
    const offering = stubClient({ resources: {} })
    let current = bare.client
    const catalog = catalogOver(() => current)
    await catalog.sync()
    current = offering.client
    await catalog.sync()
    expect(offering.listings()).toBe(1)
    expect(catalog.resources.map((resource) => resource.uri)).toEqual(['memo://one'])
  })

  it('a sync while the server is down ends, and a later sync reads the listing', async () => {
    const offering = stubClient({ resources: {} })
    let current: Client | undefined
    const catalog = catalogOver(() => current)
    await catalog.sync()
    current = offering.client
    await catalog.sync()
    expect(offering.listings()).toBe(1)
  })
})
