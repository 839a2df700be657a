import { randomUUID } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionLogRecord } from '../session-log/session-log.js'
import type { ApprovalRecord, ClaimResult, SettledApprovalOutcome, ToolStore } from './approval-store.js'

/** How the suite reaches the store under test. */
export interface ToolStoreConformanceOptions {
  /** A new, empty store for one test (a fresh schema or database per call). */
  readonly open: () => Promise<ToolStore>
  /**
   * A second store over the same data as `first` (another connection, another pool): concurrent claims are then
   * split between the two, as two processes would make them. Omitted: every claim goes through `first`.
   */
  readonly openSecond?: (first: ToolStore) => Promise<ToolStore>
  /** How many claims race for one approval. @default 50 */
  readonly concurrentClaims?: number
}

const base = 1_800_000_000_000

/** A pending approval as `runtime.execute` records one; `overrides` set what a test is about. */
export function pendingApproval(overrides: Partial<ApprovalRecord> = {}): ApprovalRecord {
  return {
    approvalId: randomUUID(),
    callId: `call-${randomUUID()}`,
    toolName: 'delete_file',
    arguments: { path: '/tmp/ünïcode ✓', nested: { list: [1, 2.5, null, true, 'x'] } },
    reasons: ['deletes a file', 'outside the workspace'],
    createdAt: base,
    expiresAt: base + 86_400_000,
    state: 'pending',
    ...overrides,
  }
}

const approvedOutcome: SettledApprovalOutcome = {
  ok: true,
  value: { deleted: true },
  content: [{ type: 'text', text: '{"deleted":true}' }],
  durationMs: 3.5,
  metadata: { attempt: 1 },
}

const claimOf = (approvalId: string, at: number, leaseMs = 60_000) => ({
  approvalId,
  answer: { approved: true, reason: 'fine', decidedBy: 'ana' },
  claimToken: randomUUID(),
  at,
  leaseUntil: at + leaseMs,
})

/**
 * The behaviour every `ToolStore` shares, as a vitest suite: records round-trip as JSON, listing filters and orders,
 * a duplicate id is refused, exactly one of many concurrent claims wins, only the owning token settles, a lapsed
 * lease is taken over as `abandoned`, and the session log reads back in append order. `createMemoryStore` passes
 * it; so must every store in `@qilin-tools/store`.
 */
export function describeToolStoreConformance(name: string, options: ToolStoreConformanceOptions): void {
  const racers = options.concurrentClaims ?? 50

  describe(`ToolStore conformance: ${name}`, () => {
    let store: ToolStore
    let second: ToolStore | undefined
    const stores = () => (second === undefined ? [store] : [store, second])

    beforeEach(async () => {
      store = await options.open()
      second = options.openSecond === undefined ? undefined : await options.openSecond(store)
    })
    afterEach(async () => {
      if (second !== undefined) await second.close()
      await store.close()
    })

    it('gives back a recorded approval as it was put, and undefined for an id it never saw', async () => {
      const record = pendingApproval({ agentId: 'agent-1', parentId: 'run-1' })
      await store.putApproval(record)
      expect(await store.getApproval(record.approvalId)).toEqual(record)
      expect(await store.getApproval(randomUUID())).toBeUndefined()
      for (const other of stores()) expect(await other.getApproval(record.approvalId)).toEqual(record)
    })

    it('keeps its own copy: changing the record after putApproval changes nothing stored', async () => {
      const args = { path: 'a' }
      const record = pendingApproval({ arguments: args })
      await store.putApproval(record)
      args.path = 'changed'
      expect((await store.getApproval(record.approvalId))?.arguments).toEqual({ path: 'a' })
    })

    it('refuses a second approval with the same id and keeps the first', async () => {
      const record = pendingApproval()
      await store.putApproval(record)
      await expect(store.putApproval({ ...record, toolName: 'other' })).rejects.toBeDefined()
      expect((await store.getApproval(record.approvalId))?.toolName).toBe('delete_file')
    })

    it('lists pending approvals only by default, oldest first, ties by approvalId', async () => {
      const records = [
        pendingApproval({ approvalId: 'b', createdAt: base + 2 }),
        pendingApproval({ approvalId: 'c', createdAt: base + 1 }),
        pendingApproval({ approvalId: 'a', createdAt: base + 2 }),
        pendingApproval({ approvalId: 'd', createdAt: base }),
      ]
      for (const record of records) await store.putApproval(record)
      const claimedOne = await store.claimApproval(claimOf('d', base + 10))
      expect(claimedOne.status).toBe('claimed')
      expect((await store.listApprovals()).map((record) => record.approvalId)).toEqual(['c', 'a', 'b'])
      expect((await store.listApprovals({ state: 'claimed' })).map((record) => record.approvalId)).toEqual(['d'])
      expect((await store.listApprovals({ limit: 2 })).map((record) => record.approvalId)).toEqual(['c', 'a'])
      expect(await store.listApprovals({ limit: 0 })).toEqual([])
    })

    it('narrows by agent, tool, creation and expiry time, all at once', async () => {
      await store.putApproval(pendingApproval({ approvalId: 'x1', agentId: 'ana', toolName: 'send' }))
      await store.putApproval(pendingApproval({ approvalId: 'x2', agentId: 'ana', toolName: 'delete_file' }))
      await store.putApproval(pendingApproval({ approvalId: 'x3', agentId: 'bo', toolName: 'send' }))
      await store.putApproval(pendingApproval({ approvalId: 'x4', toolName: 'send', createdAt: base + 100 }))
      await store.putApproval(pendingApproval({ approvalId: 'x5', toolName: 'send', expiresAt: base + 50 }))
      const ids = async (filter: Parameters<ToolStore['listApprovals']>[0]) =>
        (await store.listApprovals(filter)).map((record) => record.approvalId)
      expect(await ids({ agentId: 'ana' })).toEqual(['x1', 'x2'])
      expect(await ids({ toolName: 'send' })).toEqual(['x1', 'x3', 'x5', 'x4'])
      expect(await ids({ agentId: 'ana', toolName: 'send' })).toEqual(['x1'])
      expect(await ids({ createdAfter: base + 100 })).toEqual(['x4'])
      expect(await ids({ expiresAfter: base + 50 })).toEqual(['x1', 'x2', 'x3', 'x4'])
      expect(await ids({ expiresAfter: base + 49 })).toEqual(['x1', 'x2', 'x3', 'x5', 'x4'])
      expect(await ids({ state: 'settled' })).toEqual([])
    })

    it('claims a pending approval once: the claim carries the answer, token and lease; the next is taken', async () => {
      const record = pendingApproval()
      await store.putApproval(record)
      const claim = claimOf(record.approvalId, base + 5)
      const first = await store.claimApproval(claim)
      expect(first).toMatchObject({ status: 'claimed', abandoned: false })
      const owned = (first as Extract<ClaimResult, { status: 'claimed' }>).record
      expect(owned).toMatchObject({
        ...record,
        state: 'claimed',
        answer: claim.answer,
        claimToken: claim.claimToken,
        claimedAt: claim.at,
        leaseUntil: claim.leaseUntil,
      })
      expect(await store.getApproval(record.approvalId)).toEqual(owned)
      const again = await store.claimApproval(claimOf(record.approvalId, base + 6))
      expect(again.status).toBe('taken')
      expect((again as Extract<ClaimResult, { status: 'taken' }>).record.claimToken).toBe(claim.claimToken)
      expect(await store.claimApproval(claimOf(randomUUID(), base))).toEqual({ status: 'unknown' })
    })

    it(`lets exactly one of ${racers} concurrent claims win`, async () => {
      const record = pendingApproval()
      await store.putApproval(record)
      const all = stores()
      const results = await Promise.all(
        Array.from({ length: racers }, (_, index) =>
          all[index % all.length]!.claimApproval(claimOf(record.approvalId, base + 1)),
        ),
      )
      const winners = results.filter((result) => result.status === 'claimed')
      expect(winners).toHaveLength(1)
      expect(results.filter((result) => result.status === 'taken')).toHaveLength(racers - 1)
      const stored = await store.getApproval(record.approvalId)
      expect(stored?.claimToken).toBe((winners[0] as Extract<ClaimResult, { status: 'claimed' }>).record.claimToken)
    })

    it('settles only with the token that owns the claim, and only once', async () => {
      const record = pendingApproval()
      await store.putApproval(record)
      expect(await store.settleApproval(record.approvalId, randomUUID(), approvedOutcome, base + 1)).toBe(false)
      const claim = claimOf(record.approvalId, base + 2)
      await store.claimApproval(claim)
      expect(await store.settleApproval(record.approvalId, randomUUID(), approvedOutcome, base + 3)).toBe(false)
      expect((await store.getApproval(record.approvalId))?.state).toBe('claimed')
      expect(await store.settleApproval(record.approvalId, claim.claimToken, approvedOutcome, base + 4)).toBe(true)
      expect(await store.settleApproval(record.approvalId, claim.claimToken, approvedOutcome, base + 5)).toBe(false)
      const stored = await store.getApproval(record.approvalId)
      expect(stored).toMatchObject({ state: 'settled', outcome: approvedOutcome, settledAt: base + 4 })
      expect(await store.settleApproval(randomUUID(), claim.claimToken, approvedOutcome, base)).toBe(false)
    })

    it('answers a claim on a settled approval with the settled record, however late', async () => {
      const record = pendingApproval()
      await store.putApproval(record)
      const claim = claimOf(record.approvalId, base, 10)
      await store.claimApproval(claim)
      await store.settleApproval(record.approvalId, claim.claimToken, approvedOutcome, base + 1)
      const late = await store.claimApproval(claimOf(record.approvalId, base + 1_000_000))
      expect(late.status).toBe('taken')
      expect((late as Extract<ClaimResult, { status: 'taken' }>).record).toMatchObject({
        state: 'settled',
        outcome: approvedOutcome,
      })
    })

    it('hands a lapsed claim to the next claimer as abandoned; the old token can no longer settle', async () => {
      const record = pendingApproval()
      await store.putApproval(record)
      const dead = claimOf(record.approvalId, base, 10)
      await store.claimApproval(dead)
      expect((await store.claimApproval(claimOf(record.approvalId, base + 10))).status).toBe('taken')
      const takeover = claimOf(record.approvalId, base + 11)
      const result = await store.claimApproval(takeover)
      expect(result).toMatchObject({ status: 'claimed', abandoned: true })
      expect((result as Extract<ClaimResult, { status: 'claimed' }>).record.claimToken).toBe(takeover.claimToken)
      expect(await store.settleApproval(record.approvalId, dead.claimToken, approvedOutcome, base + 12)).toBe(false)
      expect(await store.settleApproval(record.approvalId, takeover.claimToken, approvedOutcome, base + 12)).toBe(true)
    })

    it(`lets exactly one of ${racers} concurrent takeovers of a lapsed claim win`, async () => {
      const record = pendingApproval()
      await store.putApproval(record)
      await store.claimApproval(claimOf(record.approvalId, base, 10))
      const all = stores()
      const results = await Promise.all(
        Array.from({ length: racers }, (_, index) =>
          all[index % all.length]!.claimApproval(claimOf(record.approvalId, base + 100)),
        ),
      )
      const winners = results.filter((result) => result.status === 'claimed')
      expect(winners).toHaveLength(1)
      expect(winners[0]).toMatchObject({ abandoned: true })
    })

    it('reads the session log back in append order, narrowed by id, parent and type', async () => {
      const records: SessionLogRecord[] = [
        { type: 'tool.call.started', id: 'run', name: 'run_code', arguments: { code: '1' }, at: base },
        { type: 'tool.call.started', id: 's1', name: 'add', arguments: { a: 1 }, parentId: 'run', at: base + 1 },
        {
          type: 'tool.call.settled',
          id: 's1',
          name: 'add',
          ok: true,
          content: [{ type: 'text', text: '2' }],
          durationMs: 1,
          parentId: 'run',
          at: base + 2,
        },
        {
          type: 'tool.call.waiting',
          id: 's2',
          name: 'delete_file',
          reasons: ['deletes'],
          parentId: 'run',
          agentId: 'ana',
          at: base + 3,
        },
        {
          type: 'tool.call.pending',
          id: 'c9',
          name: 'delete_file',
          approvalId: 'p-1',
          reasons: ['deletes'],
          expiresAt: base + 10,
          at: base + 4,
        },
      ]
      for (const record of records) await store.append(record)
      expect(await store.readSessionLog()).toEqual(records)
      expect(await store.readSessionLog({ id: 's1' })).toEqual([records[1], records[2]])
      expect(await store.readSessionLog({ parentId: 'run' })).toEqual(records.slice(1, 4))
      expect(await store.readSessionLog({ type: 'tool.call.started' })).toEqual(records.slice(0, 2))
      expect(await store.readSessionLog({ parentId: 'run', type: 'tool.call.settled' })).toEqual([records[2]])
      for (const other of stores()) expect(await other.readSessionLog({ id: 'c9' })).toEqual([records[4]])
    })

    it('keeps concurrent appends, each once', async () => {
      const appended = Array.from(
        { length: 100 },
        (_, index): SessionLogRecord => ({
          type: 'tool.call.started',
          id: `call-${index}`,
          name: 'add',
          arguments: { index },
          at: base + index,
        }),
      )
      const all = stores()
      await Promise.all(appended.map((record, index) => all[index % all.length]!.append(record)))
      const read = await store.readSessionLog()
      expect(read.map((record) => record.id).sort()).toEqual(appended.map((record) => record.id).sort())
    })
  })
}
