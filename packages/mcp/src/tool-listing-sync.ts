import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { DEFAULT_LISTING_LIMITS, type ListingLimits, listBounded } from './bounded-listing.js'

/** The server's tool listing kept in step with what is registered: one listing at a time, never a lost change. */
export interface ToolListingSync {
  /**
   * Lists every page again and applies it. Asked while a listing runs, it runs one more after that one (the server
   * may have changed since that listing began) and answers the same promise.
   */
  sync(signal?: AbortSignal): Promise<void>
  /** Resolves once no listing runs, however the last one ended. */
  settled(): Promise<void>
  /** How many listings were applied. */
  readonly count: number
}

export interface ToolListingSyncOptions {
  /** The live session's client; undefined while it is not connected, which ends a sync quietly. */
  readonly client: () => Client | undefined
  readonly list: (client: Client, signal: AbortSignal | undefined) => Promise<Tool[]>
  /** Registers a listing; true when the registered set changed. */
  readonly apply: (tools: Tool[]) => boolean
  /** After a change, from the second listing on (the first is the connection itself). */
  readonly onChanged: () => void
}

export function createToolListingSync(options: ToolListingSyncOptions): ToolListingSync {
  let count = 0
  let dirty = false
  let syncing: Promise<void> | undefined
  const run = async (signal: AbortSignal | undefined) => {
    for (let client = options.client(); dirty && client !== undefined; client = options.client()) {
      dirty = false
      const changed = options.apply(await options.list(client, signal))
      count++
      if (changed && count > 1) options.onChanged()
    }
  }
  return {
    sync(signal) {
      dirty = true
      if (syncing !== undefined) return syncing
      // Cleared in a reaction, never inside the run: a run with nothing to do ends before it returns, and clearing
      // there would leave this settled promise standing for every later sync (which would then list nothing).
      const running: Promise<void> = run(signal).finally(() => {
        if (syncing === running) syncing = undefined
      })
      syncing = running
      return running
    },
    async settled() {
      while (syncing !== undefined) await syncing.catch(() => {})
    },
    get count() {
      return count
    },
  }
}

/**
 * How much of `tools/list` a server may make us read: as for its other listings, but no tool is left out for its
 * size here (registration and the prompt budgets judge a schema, and say why they leave one out).
 */
const TOOL_LISTING_LIMITS: ListingLimits = Object.freeze({
  maxPages: DEFAULT_LISTING_LIMITS.maxPages,
  maxItems: DEFAULT_LISTING_LIMITS.maxItems,
})

const isTool = (item: unknown): item is Tool => typeof item === 'object' && item !== null

/**
 * Every page of a server's `tools/list`, within the listing limits: an endless or repeating pagination ends with what
 * was read, and `onProblem` says why. A server without the tools capability lists none.
 */
export async function listAllTools(
  client: Client,
  request: <T>(attempt: () => Promise<T>) => Promise<T>,
  options: { readonly timeout: number; readonly signal?: AbortSignal },
  onProblem: (problem: string) => void,
): Promise<Tool[]> {
  // A server of resources or prompts alone need not answer `tools/list`.
  if (client.getServerCapabilities()?.tools === undefined) return []
  const listing = await listBounded(
    async (cursor) => {
      const page = await request(() => client.listTools(cursor === undefined ? {} : { cursor }, options))
      return { items: page.tools, nextCursor: page.nextCursor }
    },
    isTool,
    TOOL_LISTING_LIMITS,
  )
  if (listing.problem !== undefined) onProblem(listing.problem)
  return listing.items
}
