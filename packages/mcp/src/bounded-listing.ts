/** How much of a paginated listing a server may make us keep. */
export interface ListingLimits {
  /** Pages requested at most; a server that always answers with a next cursor stops here. */
  readonly maxPages: number
  /** Entries kept at most, across every page. */
  readonly maxItems: number
  /** The largest entry, as JSON characters; a larger one is left out. Without it, no entry is left out for size. */
  readonly maxItemChars?: number
}

/** The longest cursor sent back to a server; a longer one ends the listing. */
const MAX_CURSOR_LENGTH = 4096

/** The listing limits `connectMcpServer` applies to resources, resource templates and prompts. */
export const DEFAULT_LISTING_LIMITS: ListingLimits = Object.freeze({
  maxPages: 100,
  maxItems: 10_000,
  maxItemChars: 16_384,
})

/** One page as a server answers it. */
export interface ListingPage<Item> {
  readonly items: readonly Item[]
  readonly nextCursor?: string | undefined
}

/** What was kept, and what was left out and why (for the connection's status line). */
export interface BoundedListing<Item> {
  readonly items: Item[]
  /** Set when the listing was cut short or entries were left out. */
  readonly problem?: string
}

/**
 * Reads every page through `fetchPage`, within `limits`: a repeated cursor, the page cap or the entry cap ends the
 * listing with what was read so far, and an entry that is not what `accept` wants, or too large, is left out.
 */
export async function listBounded<Item>(
  fetchPage: (cursor: string | undefined) => Promise<ListingPage<unknown>>,
  accept: (item: unknown) => item is Item,
  limits: ListingLimits = DEFAULT_LISTING_LIMITS,
): Promise<BoundedListing<Item>> {
  const items: Item[] = []
  const cursors = new Set<string>()
  let dropped = 0
  let cursor: string | undefined
  for (let page = 0; page < limits.maxPages; page++) {
    const answer = await fetchPage(cursor)
    for (const item of answer.items) {
      if (items.length >= limits.maxItems) {
        return { items, problem: `listing cut at ${limits.maxItems} entries${droppedNote(dropped)}` }
      }
      const { maxItemChars } = limits
      if (accept(item) && (maxItemChars === undefined || jsonChars(item) <= maxItemChars)) items.push(item)
      else dropped++
    }
    cursor = answer.nextCursor
    if (cursor === undefined) return dropped === 0 ? { items } : { items, problem: droppedNote(dropped).slice(2) }
    if (typeof cursor !== 'string' || cursor.length > MAX_CURSOR_LENGTH) {
      return {
        items,
        problem: `listing stopped at a cursor longer than ${MAX_CURSOR_LENGTH} characters${droppedNote(dropped)}`,
      }
    }
    if (cursors.has(cursor)) return { items, problem: `listing stopped at a repeated cursor${droppedNote(dropped)}` }
    cursors.add(cursor)
  }
  return { items, problem: `listing cut at ${limits.maxPages} pages${droppedNote(dropped)}` }
}

function droppedNote(dropped: number): string {
  return dropped === 0 ? '' : `; ${dropped} malformed or oversized entries left out`
}

function jsonChars(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? Number.POSITIVE_INFINITY
  } catch {
    return Number.POSITIVE_INFINITY
  }
}
