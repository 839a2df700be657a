import type { ToolStore } from 'qilin-tools/internal/approvals/approval-store.js'
import { pendingApproval } from 'qilin-tools/internal/approvals/store-conformance.js'
import type { JsonObject, JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import { afterEach, describe, expect, it } from 'vitest'
import { WHOLE_LISTING_BYTES } from '../sql-port.js'
import type { DatabaseStoreOptions } from '../sql-store.js'
import { isStoreError } from '../store-error.js'

/** Identifiers a model or a host could send: SQL quoting, NUL, the escape character itself, lone surrogates. */
const hostileIds = [
  "it's",
  "'; DROP TABLE qilin_approvals; --",
  'back\\slash "double" $1 %s',
  'nul\u0000inside',
  '\u0000',
  'escape\u0001char\u00010\u00011',
  'lone \uD800 high',
  'lone \uDC00 low',
  'pair 😀 ok',
  '',
]

function nested(depth: number): JsonValue {
  let value: JsonValue = 'bottom'
  for (let level = 0; level < depth; level += 1) value = [value]
  return value
}

/**
 * What the model and tool authors send reaches the database only as statement parameters and comes back exactly
 * as it went in, or is refused whole with a StoreError; it never ends the process. `open` gives a fresh store.
 */
export function describeHostileRecords(name: string, open: (options?: DatabaseStoreOptions) => Promise<ToolStore>) {
  describe(`hostile records: ${name}`, () => {
    let store: ToolStore | undefined
    afterEach(async () => {
      await store?.close()
      store = undefined
    })

    it('keeps identifiers with quotes, NUL, U+0001 and lone surrogates exactly, and filters by them', async () => {
      store = await open()
      for (const [index, id] of hostileIds.entries()) {
        const record = pendingApproval({ approvalId: `${id}#${index}`, callId: id, agentId: id, parentId: id })
        await store.putApproval(record)
        expect(await store.getApproval(record.approvalId)).toEqual(record)
        expect((await store.listApprovals({ agentId: id })).map((found) => found.approvalId)).toEqual([
          record.approvalId,
        ])
        const claim = { approvalId: record.approvalId, answer: { approved: true, decidedBy: id }, claimToken: id }
        expect(await store.claimApproval({ ...claim, at: 1, leaseUntil: 2 })).toMatchObject({ status: 'claimed' })
        const outcome = { ok: true, content: [{ type: 'text', text: id }], durationMs: 1 }
        expect(await store.settleApproval(record.approvalId, id, outcome, 3)).toBe(true)
        await store.append({ type: 'tool.call.started', id, name: id, arguments: { [id]: id }, parentId: id, at: 4 })
        expect(await store.readSessionLog({ id, parentId: id })).toEqual([
          { type: 'tool.call.started', id, name: id, arguments: { [id]: id }, parentId: id, at: 4 },
        ])
      }
      // An id that differs only after a NUL is another id, not a prefix match.
      expect(await store.getApproval('nul')).toBeUndefined()
      expect(await store.listApprovals({ state: 'settled' })).toHaveLength(hostileIds.length)
    })

    it('gives arguments back byte for byte: key order, NUL in keys and values, __proto__, lone surrogates', async () => {
      store = await open()
      const text =
        '{"z":1,"a":"\\u0000","\\u0000key":"x\\u0000y","__proto__":{"polluted":true},"lone":"\\ud800",' +
        '"n":[1e21,-0.5,12345678901234567890],"\\u0001":"\\u0001"}'
      const args = JSON.parse(text) as JsonObject
      const record = pendingApproval({ arguments: args, reasons: ['\u0000 reason', "it's"] })
      await store.putApproval(record)
      const stored = await store.getApproval(record.approvalId)
      expect(JSON.stringify(stored?.arguments)).toBe(JSON.stringify(args))
      expect(stored?.reasons).toEqual(['\u0000 reason', "it's"])
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })

    it('stores an 8 MiB argument whole and refuses one past maxRecordBytes with STORE_RECORD_TOO_LARGE', async () => {
      store = await open()
      const big = pendingApproval({ arguments: { text: 'é'.repeat(4 * 1024 * 1024) } })
      await store.putApproval(big)
      expect((await store.getApproval(big.approvalId))?.arguments).toEqual(big.arguments)
      const tooBig = pendingApproval({ arguments: { text: 'x'.repeat(16 * 1024 * 1024) } })
      await expect(store.putApproval(tooBig)).rejects.toMatchObject({ code: 'STORE_RECORD_TOO_LARGE' })
      expect(await store.getApproval(tooBig.approvalId)).toBeUndefined()
      await store.close()
      store = await open({ maxRecordBytes: 1024 })
      const record = pendingApproval()
      await store.putApproval(record)
      const claim = { approvalId: record.approvalId, answer: { approved: true }, claimToken: 't', at: 1, leaseUntil: 9 }
      await store.claimApproval(claim)
      const huge = { ok: true, content: [{ type: 'text', text: 'y'.repeat(2048) }], durationMs: 1 }
      await expect(store.settleApproval(record.approvalId, 't', huge, 2)).rejects.toMatchObject({
        code: 'STORE_RECORD_TOO_LARGE',
      })
      expect((await store.getApproval(record.approvalId))?.state).toBe('claimed')
      const log = { type: 'tool.call.started' as const, id: 'c', name: 'n', arguments: { a: 'z'.repeat(2048) }, at: 1 }
      await expect(store.append(log)).rejects.toMatchObject({ code: 'STORE_RECORD_TOO_LARGE' })
    }, 120_000)

    it('lists approvals whose arguments together pass WHOLE_LISTING_BYTES intact, a row per record', async () => {
      store = await open()
      const text = 'é'.repeat(WHOLE_LISTING_BYTES / 4)
      const large = [0, 1, 2].map((index) => pendingApproval({ createdAt: index, arguments: { text, index } }))
      for (const record of large) await store.putApproval(record)
      const listed = await store.listApprovals()
      expect(listed.map((record) => record.approvalId)).toEqual(large.map((record) => record.approvalId))
      expect(listed.map((record) => record.arguments)).toEqual(large.map((record) => record.arguments))
      expect(await store.listApprovals({ limit: 1 })).toEqual([large[0]])
    }, 120_000)

    it('refuses arguments nested past what JSON.stringify or the server can take with a StoreError', async () => {
      store = await open()
      for (const depth of [200, 5_000, 100_000]) {
        const record = pendingApproval({ arguments: { deep: nested(depth) } })
        const put = await store.putApproval(record).then(
          () => 'stored',
          (error: unknown) => (isStoreError(error) ? error.code : `not a StoreError: ${String(error)}`),
        )
        if (depth === 200) expect(put).toBe('stored')
        else expect(put, `depth ${depth}`).toMatch(/^(stored|STORE_INVALID_RECORD|STORE_QUERY_FAILED)$/)
        if (put === 'stored') expect((await store.getApproval(record.approvalId))?.arguments).toEqual(record.arguments)
      }
      // The store still answers afterwards.
      expect(await store.listApprovals({ limit: 1 })).toHaveLength(1)
    }, 60_000)

    it('takes fractional or out-of-range times as a caller error, not a crash', async () => {
      store = await open()
      await expect(store.putApproval(pendingApproval({ createdAt: 1.5 }))).rejects.toThrow(/whole milliseconds/)
      await expect(store.listApprovals({ createdAfter: Number.NaN })).rejects.toThrow(/whole milliseconds/)
      expect(await store.listApprovals({ limit: -1 })).toEqual([])
    })
  })
}
