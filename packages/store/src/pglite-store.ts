import type { PGlite } from '@electric-sql/pglite'
import type { ToolStore } from 'qilin-tools/internal/approvals/approval-store.js'
import { loadDriver } from './load-driver.js'
import { openSqlStore } from './open-store.js'
import { pglitePort } from './pglite-port.js'
import type { DatabaseStoreOptions } from './sql-store.js'

/** Where a PGlite store keeps its database. */
export interface PgliteStoreOptions extends DatabaseStoreOptions {
  /**
   * A folder for the database files (created when missing), or `memory://` for a database that ends with the
   * process. One process at a time may open a folder.
   * @default 'memory://'
   */
  readonly dataDir?: string
}

interface PgliteModule {
  readonly PGlite: { create(dataDir?: string): Promise<PGlite> }
}

/**
 * Opens a store in PGlite (PostgreSQL compiled to WebAssembly, install `@electric-sql/pglite` beside this package):
 * the same schema and statements as `createPostgresStore`, with no server, for one process.
 */
export async function createPgliteStore(options: PgliteStoreOptions = {}): Promise<ToolStore> {
  const { PGlite } = await loadDriver<PgliteModule>('@electric-sql/pglite', 'createPgliteStore')
  const port = pglitePort(await PGlite.create(options.dataDir ?? 'memory://'))
  return openSqlStore(port, options)
}
