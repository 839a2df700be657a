import { PGlite } from '@electric-sql/pglite'
import type { ApprovalRecord } from 'qilin-tools/internal/approvals/approval-store.js'
import { pendingApproval } from 'qilin-tools/internal/approvals/store-conformance.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approvalOfRecord } from './approval-row.js'
import { openSqlStore } from './open-store.js'
import { pglitePort } from './pglite-port.js'
import type { SqlPort } from './sql-port.js'

const pending = pendingApproval({ approvalId: 'a-pending', callId: 'nul\u0000 and \u0001 escaped' })
const settled: ApprovalRecord = {
  ...pendingApproval({ approvalId: 'a-settled', agentId: 'lone \uD800', parentId: 'run-1' }),
  state: 'settled',
  answer: { approved: true, reason: 'fine', decidedBy: 'ana' },
  claimToken: 'token\u0001s0041',
  claimedAt: 1_800_000_000_000,
  leaseUntil: 1_800_000_060_000,
  outcome: { ok: true, value: { deleted: null }, content: [{ type: 'text', text: 'ok' }], durationMs: 1.5 },
  settledAt: 1_800_000_001_000,
}

let database: PGlite
let port: SqlPort
beforeAll(async () => {
  database = await PGlite.create('memory://')
  port = pglitePort(database)
  const store = await openSqlStore({ ...port, close: async () => {} }, {})
  for (const record of [pending, settled]) await store.putApproval(record)
}, 120_000)
afterAll(async () => {
  await database?.close()
})

describe('approvalOfRecord', () => {
  it('gives back each stored record exactly: absent fields absent, escaped text restored', async () => {
    const { rows } = await port.query('SELECT record FROM qilin_approvals ORDER BY approval_id')
    const records = rows.map((row) => approvalOfRecord(row.record))
    expect(records).toStrictEqual([pending, settled])
    expect(Object.keys(records[0]!)).toEqual(Object.keys(pending))
  })
})
