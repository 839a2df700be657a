import type { Migration } from './migrations.js'
import type { SqlPort } from './sql-port.js'
import { StoreError, StoreErrorCode } from './store-error.js'

/** The advisory lock every opener takes before reading the schema version (an arbitrary constant: "qilin" + 1). */
const MIGRATION_LOCK = 7_172_831_001

/**
 * Brings the schema to the newest version this release knows, in one transaction. Every opener first takes a
 * transaction-scoped advisory lock, so two processes opening one fresh database at once apply each step once: the
 * second waits, then finds the steps recorded. A database a newer release migrated further is refused untouched.
 * Returns the version the database is at.
 */
export async function migrate(port: SqlPort, steps: readonly Migration[]): Promise<number> {
  const newest = steps.at(-1)?.version ?? 0
  return port.transaction(async (transaction) => {
    await transaction.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await transaction.query(
      'CREATE TABLE IF NOT EXISTS qilin_schema_version (version integer PRIMARY KEY, applied_at bigint NOT NULL)',
    )
    const { rows } = await transaction.query('SELECT coalesce(max(version), 0) AS version FROM qilin_schema_version')
    const current = Number(rows[0]?.version ?? 0)
    if (current > newest) {
      throw new StoreError(
        StoreErrorCode.SCHEMA_TOO_NEW,
        `the database schema is at version ${current}, newer than this release knows (${newest}): upgrade @qilin-tools/store`,
      )
    }
    for (const step of steps) {
      if (step.version <= current) continue
      for (const statement of step.statements) await transaction.query(statement)
      await transaction.query('INSERT INTO qilin_schema_version (version, applied_at) VALUES ($1, $2)', [
        step.version,
        Date.now(),
      ])
    }
    return newest
  })
}
