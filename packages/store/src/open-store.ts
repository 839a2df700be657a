import type { ToolStore } from 'qilin-tools/internal/approvals/approval-store.js'
import { guardedPort } from './guarded-port.js'
import { migrate } from './migrate.js'
import { migrations } from './migrations.js'
import type { SqlPort } from './sql-port.js'
import { createSqlStore, type DatabaseStoreOptions } from './sql-store.js'

/**
 * Migrates the schema over a fresh driver port, then builds the store on it, with driver failures reported as
 * `STORE_QUERY_FAILED`; a failed migration closes the port.
 */
export async function openSqlStore(driver: SqlPort, options: DatabaseStoreOptions): Promise<ToolStore> {
  const port = guardedPort(driver)
  try {
    await migrate(port, migrations)
  } catch (error) {
    await port.close().catch(() => {})
    throw error
  }
  return createSqlStore(port, options)
}
