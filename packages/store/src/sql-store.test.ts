import { PGlite } from '@electric-sql/pglite'
import type { ApprovalRecord } from 'qilin-tools/internal/approvals/approval-store.js'
import { pendingApproval } from 'qilin-tools/internal/approvals/store-conformance.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSqlStore } from './open-store.js'
import { pglitePort } from './pglite-port.js'
import { CHUNK_BYTES } from './sql-store.js'

let database: PGlite
beforeAll(async () => {
  database = await PGlite.create('memory://')
}, 120_000)
afterAll(async () => {
  await database?.close()
})

/** Oldest first, ties by id in byte order (ASCII ids here, so code-unit order is byte order). */
const byListingOrder = (a: ApprovalRecord, b: ApprovalRecord) =>
  a.createdAt - b.createdAt || (a.approvalId < b.approvalId ? -1 : a.approvalId > b.approvalId ? 1 : 0)

describe('listApprovals in chunks', () => {
  it('lists records spread over many chunks in order, filtered and limited, no chunk past its bound', async () => {
    const port = pglitePort(database)
    // Every text a listing receives, to check the bound on each chunk.
    const chunkLengths: number[] = []
    const store = await openSqlStore(
      {
        ...port,
        query: async (text, parameters) => {
          const result = await port.query(text, parameters)
          for (const row of result.rows) if (typeof row.records === 'string') chunkLengths.push(row.records.length)
          return result
        },
        close: async () => {},
      },
      {},
    )
    const records: ApprovalRecord[] = []
    for (let index = 0; index < 300; index++) {
      // Ties on createdAt, ids that sort differently by byte and by locale, a few large and one very large value.
      const size = index === 150 ? 3 * 1024 * 1024 : index % 10 === 0 ? 150_000 : 20
      records.push(
        pendingApproval({
          approvalId: `${index % 2 === 0 ? 'B' : 'a'}-${String(index).padStart(3, '0')}`,
          agentId: index % 3 === 0 ? 'three' : 'other',
          createdAt: Math.floor(index / 4),
          arguments: { text: 'é,]"'.repeat(size / 4), index },
        }),
      )
    }
    for (const record of [...records].reverse()) await store.putApproval(record)
    const ordered = [...records].sort(byListingOrder)

    expect(await store.listApprovals()).toStrictEqual(ordered)
    const largestRecord = Math.max(...records.map((record) => JSON.stringify(record).length))
    expect(chunkLengths.length).toBeGreaterThan(4)
    expect(Math.max(...chunkLengths)).toBeLessThanOrEqual(CHUNK_BYTES + largestRecord)
    expect(await store.listApprovals({ limit: 37 })).toStrictEqual(ordered.slice(0, 37))
    expect(await store.listApprovals({ agentId: 'three', createdAfter: 20 })).toStrictEqual(
      ordered.filter((record) => record.agentId === 'three' && record.createdAt >= 20),
    )
    expect(await store.listApprovals({ state: 'claimed' })).toStrictEqual([])
  }, 120_000)
})
