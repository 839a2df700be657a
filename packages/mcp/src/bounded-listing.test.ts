import { describe, expect, it } from 'vitest'
import { listBounded } from './bounded-listing.js'

const isEntry = (value: unknown): value is { id: number } =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'number'
const limits = { maxPages: 5, maxItems: 20, maxItemChars: 100 }

describe('listBounded', () => {
  it('reads every page until the server stops giving a cursor', async () => {
    const listing = await listBounded(
      async (cursor) => {
        const start = Number(cursor ?? 0)
        return { items: [{ id: start }, { id: start + 1 }], nextCursor: start < 4 ? String(start + 2) : undefined }
      },
      isEntry,
      limits,
    )
    expect(listing).toEqual({ items: [0, 1, 2, 3, 4, 5].map((id) => ({ id })) })
  })

  it('stops an endless pagination at the page cap and says so', async () => {
    let requested = 0
    const listing = await listBounded(
      async () => {
        requested++
        return { items: [{ id: requested }], nextCursor: `next-${requested}` }
      },
      isEntry,
      limits,
    )
    expect(requested).toBe(5)
    expect(listing.items).toHaveLength(5)
    expect(listing.problem).toBe('listing cut at 5 pages')
  })

  it('stops at a cursor the server already gave', async () => {
    let requested = 0
    const listing = await listBounded(
      async () => {
        requested++
        return { items: [{ id: requested }], nextCursor: 'same' }
      },
      isEntry,
      limits,
    )
    expect(requested).toBe(2)
    expect(listing.problem).toBe('listing stopped at a repeated cursor')
  })

  it('stops at a cursor too long to send back', async () => {
    const listing = await listBounded(async () => ({ items: [], nextCursor: 'c'.repeat(5000) }), isEntry, limits)
    expect(listing.problem).toMatch(/^listing stopped at a cursor longer than 4096 characters/)
  })

  it('keeps the entry cap and leaves out malformed and oversized entries', async () => {
    const listing = await listBounded(
      async () => ({
        items: [
          { id: 1 },
          { name: 'no id' },
          { id: 2, padding: 'p'.repeat(200) },
          ...Array.from({ length: 30 }, (_, id) => ({ id })),
        ],
      }),
      isEntry,
      limits,
    )
    expect(listing.items).toHaveLength(20)
    expect(listing.items[0]).toEqual({ id: 1 })
    expect(listing.problem).toBe('listing cut at 20 entries; 2 malformed or oversized entries left out')
  })
})
