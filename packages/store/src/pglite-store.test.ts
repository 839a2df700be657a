import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { describeToolStoreConformance, pendingApproval } from 'qilin-tools/internal/approvals/store-conformance.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeHostileRecords } from './__fixtures__/hostile-records.js'
import { openSqlStore } from './open-store.js'
import { pglitePort } from './pglite-port.js'
import { createPgliteStore } from './pglite-store.js'
import type { DatabaseStoreOptions } from './sql-store.js'

// Starting PGlite compiles PostgreSQL's WebAssembly and runs initdb: seconds each time on a loaded machine. The
// suites share one database and start each test from no tables, so every test still runs the migration on open.
let database: PGlite
beforeAll(async () => {
  database = await PGlite.create('memory://')
}, 120_000)
afterAll(async () => {
  await database?.close()
})

async function freshStore(options: DatabaseStoreOptions = {}) {
  await database.exec('DROP TABLE IF EXISTS qilin_approvals, qilin_session_log, qilin_schema_version')
  return openSqlStore({ ...pglitePort(database), close: async () => {} }, options)
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
