import type { ApprovalRecord } from 'qilin-tools/internal/approvals/approval-store.js'
import { pendingApproval } from 'qilin-tools/internal/approvals/store-conformance.js'
import { describe, expect, it } from 'vitest'
import { sharedPglite } from './__fixtures__/shared-pglite.js'
import { migrate } from './migrate.js'
import { migrations } from './migrations.js'
import { pglitePort } from './pglite-port.js'
import { WHOLE_LISTING_BYTES } from './sql-port.js'
import { createSqlStore } from './sql-store.js'

const { database, emptied } = sharedPglite()

/** Oldest first, ties by id in byte order (ASCII ids here, so code-unit order is byte order). */
const byListingOrder = (a: ApprovalRecord, b: ApprovalRecord) =>
  a.createdAt - b.createdAt || (a.approvalId < b.approvalId ? -1 : a.approvalId > b.approvalId ? 1 : 0)

/** A fresh store over the shared database taking listings whole up to `wholeListingBytes`, and every text it got. */
async function storeTakingWhole(wholeListingBytes: number) {
  await emptied()
  const port = pglitePort(database())
  await migrate(port, migrations)
  const wholeTexts: number[] = []
  const query: typeof port.query = async (text, parameters) => {
    const result = await port.query(text, parameters)
    for (const row of result.rows) if (typeof row.records === 'string') wholeTexts.push(row.records.length)
    return result
  }
  const store = createSqlStore({ ...port, wholeListingBytes, query, close: async () => {} }, {})
  return { store, wholeTexts }
}

// Ties on createdAt, ids whose byte order differs from locale order, a few large values and one very large one.
const records = Array.from({ length: 300 }, (_, index) =>
  pendingApproval({
    approvalId: `${index % 2 === 0 ? 'B' : 'a'}-${String(index).padStart(3, '0')}`,
    agentId: index % 3 === 0 ? 'three' : 'other',
    createdAt: Math.floor(index / 4),
    arguments: { text: 'é,]"'.repeat(index === 150 ? 1024 * 1024 : index % 10 === 0 ? 40_000 : 5), index },
  }),
)
const ordered = [...records].sort(byListingOrder)

describe('listApprovals', () => {
  for (const [how, wholeListingBytes] of [
    ['whole, as one text', WHOLE_LISTING_BYTES],
    ['a row per record, past wholeListingBytes', 1024 * 1024],
    ['a row per record, as pg takes them', 0],
  ] as const) {
    it(`lists in order, filtered and limited: ${how}`, async () => {
      const { store, wholeTexts } = await storeTakingWhole(wholeListingBytes)
      for (const record of [...records].reverse()) await store.putApproval(record)

      expect(await store.listApprovals()).toStrictEqual(ordered)
      expect(await store.listApprovals({ limit: 37 })).toStrictEqual(ordered.slice(0, 37))
      expect(await store.listApprovals({ agentId: 'three', createdAfter: 20, limit: 30 })).toStrictEqual(
        ordered.filter((record) => record.agentId === 'three' && record.createdAt >= 20).slice(0, 30),
      )
      expect(await store.listApprovals({ state: 'claimed' })).toStrictEqual([])
      expect(await store.listApprovals({ limit: 0 })).toStrictEqual([])
      // No text past the bound is ever built: the listing over it comes back a row at a time.
      for (const length of wholeTexts) expect(length).toBeLessThanOrEqual(wholeListingBytes + 1)
      // Of the listings here only the first 37 records fit in 1 MiB.
      if (wholeListingBytes === 1024 * 1024) expect(wholeTexts).toHaveLength(1)
      if (wholeListingBytes === WHOLE_LISTING_BYTES) expect(wholeTexts).toHaveLength(3)
      if (wholeListingBytes === 0) expect(wholeTexts).toEqual([])
    }, 120_000)
  }
})
