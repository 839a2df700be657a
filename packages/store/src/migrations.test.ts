import type { ApprovalRecord } from 'qilin-tools/internal/approvals/approval-store.js'
import { pendingApproval } from 'qilin-tools/internal/approvals/store-conformance.js'
import { describe, expect, it } from 'vitest'
import { sharedPglite } from './__fixtures__/shared-pglite.js'
import { toColumnText } from './column-text.js'
import { migrate } from './migrate.js'
import { migrations } from './migrations.js'
import { openSqlStore } from './open-store.js'
import { pglitePort } from './pglite-port.js'
import type { SqlQuery } from './sql-port.js'

const { database, emptied } = sharedPglite()

const port = () => ({ ...pglitePort(database()), close: async () => {} })

/** An approval written as release 1 wrote it: the version 1 columns only, no `record`. */
async function putAsVersionOne(query: SqlQuery, record: ApprovalRecord) {
  const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value))
  const text = (value: string | undefined) => (value === undefined ? null : toColumnText(value))
  await query.query(
    `INSERT INTO qilin_approvals (approval_id, call_id, tool_name, agent_id, parent_id, arguments, reasons,
      created_at, expires_at, state, answer, claim_token, claimed_at, lease_until, outcome, settled_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      toColumnText(record.approvalId),
      toColumnText(record.callId),
      toColumnText(record.toolName),
      text(record.agentId),
      text(record.parentId),
      json(record.arguments),
      json(record.reasons),
      record.createdAt,
      record.expiresAt,
      record.state,
      json(record.answer),
      text(record.claimToken),
      record.claimedAt ?? null,
      record.leaseUntil ?? null,
      json(record.outcome),
      record.settledAt ?? null,
    ],
  )
}

const settled: ApprovalRecord = {
  ...pendingApproval({ approvalId: 'b-settled', agentId: 'lone \uD800', parentId: 'run-1', createdAt: 2 }),
  state: 'settled',
  answer: { approved: true, reason: 'fine', decidedBy: 'ana' },
  claimToken: 'token\u0001s0041',
  claimedAt: 3,
  leaseUntil: 4,
  outcome: { ok: true, value: { deleted: null }, content: [{ type: 'text', text: 'nul \u0000' }], durationMs: 1.5 },
  settledAt: 5,
}
const pending = pendingApproval({ approvalId: 'a-pending', callId: 'nul\u0000 and \u0001', createdAt: 1 })

describe('migration 2 (the record column)', () => {
  it('upgrades a version 1 database: the approvals stored before read back exactly, listed in order', async () => {
    await emptied()
    await migrate(port(), migrations.slice(0, 1))
    for (const record of [settled, pending]) await putAsVersionOne(port(), record)

    const store = await openSqlStore(port(), {})
    const versions = await database().query('SELECT version FROM qilin_schema_version ORDER BY version')
    expect(versions.rows).toEqual([{ version: 1 }, { version: 2 }])
    expect(await store.getApproval(settled.approvalId)).toStrictEqual(settled)
    expect(await store.listApprovals()).toStrictEqual([pending])
    expect(await store.listApprovals({ state: 'settled', agentId: 'lone \uD800' })).toStrictEqual([settled])
  }, 60_000)

  it('keeps the record true for a writer still on release 1, and through a claim', async () => {
    await emptied()
    const store = await openSqlStore(port(), {})
    await putAsVersionOne(port(), pending)
    expect(await store.getApproval(pending.approvalId)).toStrictEqual(pending)
    const answer = { approved: false, reason: 'no' }
    const claim = { approvalId: pending.approvalId, answer, claimToken: 't', at: 10, leaseUntil: 20 }
    const claimed = { ...pending, state: 'claimed', answer, claimToken: 't', claimedAt: 10, leaseUntil: 20 }
    expect(await store.claimApproval(claim)).toStrictEqual({ status: 'claimed', record: claimed, abandoned: false })
    expect(await store.listApprovals({ state: 'claimed' })).toStrictEqual([claimed])
  }, 60_000)
})
