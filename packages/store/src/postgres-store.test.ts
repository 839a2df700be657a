import pg from 'pg'
import type { ToolStore } from 'qilin-tools/internal/approvals/approval-store.js'
import { describeToolStoreConformance, pendingApproval } from 'qilin-tools/internal/approvals/store-conformance.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PostgresServer, startPostgresServer } from '../../../test/support/postgres-server.js'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { describeHostileRecords } from './__fixtures__/hostile-records.js'
import { createPostgresStore } from './postgres-store.js'
import type { DatabaseStoreOptions } from './sql-store.js'

const postgresql = hasSystemPart('postgresql', 'packages/store/src/postgres-store.test.ts')

describe.skipIf(!postgresql)('createPostgresStore on a real PostgreSQL server', () => {
  let server: PostgresServer
  let databases = 0
  const connectionOf = new WeakMap<ToolStore, string>()
  const freshDatabase = () => server.createDatabase(`store_${++databases}`)
  const freshStore = async (options: DatabaseStoreOptions = {}) => {
    const connectionString = await freshDatabase()
    const store = await createPostgresStore({ connectionString, ...options })
    connectionOf.set(store, connectionString)
    return store
  }
  beforeAll(async () => {
    server = await startPostgresServer()
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
  })

  describeToolStoreConformance('PostgreSQL, two pools as two processes', {
    open: () => freshStore(),
    openSecond: (first) => createPostgresStore({ connectionString: connectionOf.get(first)! }),
  })
  describeHostileRecords('PostgreSQL', freshStore)

  it('migrates a fresh database once when eight pools open it at the same moment', async () => {
    const connectionString = await freshDatabase()
    const stores = await Promise.all(Array.from({ length: 8 }, () => createPostgresStore({ connectionString })))
    const client = new pg.Client({ connectionString })
    await client.connect()
    try {
      expect((await client.query('SELECT version FROM qilin_schema_version ORDER BY version')).rows).toEqual([
        { version: 1 },
        { version: 2 },
      ])
    } finally {
      await client.end()
      await Promise.all(stores.map((store) => store.close()))
    }
  }, 60_000)

  it('refuses a database a newer release migrated, leaving it untouched', async () => {
    const connectionString = await freshDatabase()
    await (await createPostgresStore({ connectionString })).close()
    const client = new pg.Client({ connectionString })
    await client.connect()
    try {
      await client.query('INSERT INTO qilin_schema_version (version, applied_at) VALUES (3, 0)')
      await expect(createPostgresStore({ connectionString })).rejects.toMatchObject({
        code: 'STORE_SCHEMA_TOO_NEW',
        message: expect.stringMatching(/version 3, newer than this release knows \(2\)/),
      })
      expect((await client.query('SELECT version FROM qilin_schema_version ORDER BY version')).rows).toEqual([
        { version: 1 },
        { version: 2 },
        { version: 3 },
      ])
    } finally {
      await client.end()
    }
  }, 60_000)

  it('closes the pool it made, and leaves a pool it was given open for its owner', async () => {
    const connectionString = await freshDatabase()
    const pool = new pg.Pool({ connectionString, max: 2 })
    const store = await createPostgresStore({ pool })
    const record = pendingApproval()
    await store.putApproval(record)
    await store.close()
    await expect(store.getApproval(record.approvalId)).rejects.toMatchObject({ code: 'STORE_CLOSED' })
    expect((await pool.query('SELECT count(*)::int AS n FROM qilin_approvals')).rows).toEqual([{ n: 1 }])
    await pool.end()
    const own = await createPostgresStore({ connectionString })
    expect(await own.getApproval(record.approvalId)).toEqual(record)
    await own.close()
    await own.close()
  }, 60_000)
})

describe.skipIf(!postgresql)('createPostgresStore when the server goes away', () => {
  it('reports STORE_QUERY_FAILED and keeps the process alive when the server dies under idle connections', async () => {
    const server = await startPostgresServer()
    try {
      const store = await createPostgresStore({ connectionString: server.connectionString, maxConnections: 4 })
      // Open several connections, then let them sit idle in the pool.
      await Promise.all(Array.from({ length: 4 }, () => store.listApprovals()))
      await server.kill()
      await new Promise((resolve) => setTimeout(resolve, 200))
      await expect(store.listApprovals()).rejects.toMatchObject({ code: 'STORE_QUERY_FAILED' })
      await store.close()
    } finally {
      await server.stop()
    }
  }, 120_000)

  it('rejects an unreachable server at open with STORE_QUERY_FAILED', async () => {
    const server = await startPostgresServer()
    const { connectionString } = server
    await server.stop()
    await expect(createPostgresStore({ connectionString })).rejects.toMatchObject({ code: 'STORE_QUERY_FAILED' })
  }, 120_000)
})
