import { migrate } from './migrate.js'
import { migrations } from './migrations.js'
import type { SqlPort } from './sql-port.js'
import { createSqlStore, type DatabaseStore, type DatabaseStoreOptions } from './sql-store.js'

/** Migrates the schema over a fresh port, then builds the store on it; a failed migration closes the port. */
export async function openSqlStore(port: SqlPort, options: DatabaseStoreOptions): Promise<DatabaseStore> {
  try {
    await migrate(port, migrations)
  } catch (error) {
    await port.close().catch(() => {})
    throw error
  }
  return createSqlStore(port, options)
}
