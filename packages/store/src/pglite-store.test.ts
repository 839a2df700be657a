import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { describeToolStoreConformance, pendingApproval } from 'qilin-tools/internal/approvals/store-conformance.js'
import { describe, expect, it } from 'vitest'
import { describeHostileRecords } from './__fixtures__/hostile-records.js'
import { sharedPglite } from './__fixtures__/shared-pglite.js'
import { openSqlStore } from './open-store.js'
import { pglitePort } from './pglite-port.js'
import { createPgliteStore } from './pglite-store.js'
import type { DatabaseStoreOptions } from './sql-store.js'

// The suites share one database and start each test from no tables, so every test still runs the migration on open.
const { database, emptied } = sharedPglite()

async function freshStore(options: DatabaseStoreOptions = {}) {
  await emptied()
  return openSqlStore({ ...pglitePort(database()), close: async () => {} }, options)
}

describeToolStoreConformance('PGlite, the same SQL as PostgreSQL', { open: () => freshStore() })
describeHostileRecords('PGlite', freshStore)

describe('createPgliteStore', () => {
  it('keeps approvals in a dataDir across a close and a reopen, migrating once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'qilin-pglite-'))
    try {
      const record = pendingApproval({ agentId: 'ana' })
      const first = await createPgliteStore({ dataDir })
      await first.putApproval(record)
      await first.close()
      await expect(first.getApproval(record.approvalId)).rejects.toMatchObject({ code: 'STORE_CLOSED' })
      const second = await createPgliteStore({ dataDir })
      expect(await second.getApproval(record.approvalId)).toEqual(record)
      await second.close()
      const raw = await PGlite.create(dataDir)
      expect((await raw.query('SELECT version FROM qilin_schema_version ORDER BY version')).rows).toEqual([
        { version: 1 },
        { version: 2 },
      ])
      await raw.close()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
