import type { ToolStore } from 'qilin-tools/internal/approvals/approval-store.js'
import { loadDriver } from './load-driver.js'
import { openSqlStore } from './open-store.js'
import { type PostgresPool, postgresPort } from './postgres-port.js'
import type { DatabaseStoreOptions } from './sql-store.js'

/** Where a Postgres store connects: a connection string (the store makes and ends its pool), or a pool of yours. */
export type PostgresStoreOptions = DatabaseStoreOptions &
  (
    | {
        /** `postgres://user:password@host:port/database`, as `pg` reads it. */
        readonly connectionString: string
        /** Connections the store's pool opens at most. @default 10 */
        readonly maxConnections?: number
        readonly pool?: never
      }
    | {
        /** A `pg` `Pool` (or one like it) that stays yours: `close()` leaves it open. */
        readonly pool: PostgresPool
        readonly connectionString?: never
        readonly maxConnections?: never
      }
  )

interface PgModule {
  readonly default: { Pool: new (config: { connectionString: string; max: number }) => PostgresPool & PoolEvents }
}

interface PoolEvents {
  on(event: 'error', listener: (error: Error) => void): unknown
}

/**
 * Opens a store in a PostgreSQL database over `pg` (install `pg` beside this package), migrating its schema first.
 * Any number of processes may share one database: each lists every approval, and each approval is decided once.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<ToolStore> {
  let pool: PostgresPool
  const owned = options.pool === undefined
  if (options.pool !== undefined) pool = options.pool
  else {
    const pg = await loadDriver<PgModule>('pg', 'createPostgresStore')
    const created = new pg.default.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
    })
    // An idle connection the server drops emits `error` on the pool, which would otherwise end the process; the
    // next query on a fresh connection reports the failure as STORE_QUERY_FAILED instead.
    created.on('error', () => {})
    pool = created
  }
  const port = postgresPort(pool, owned)
  return openSqlStore(port, options)
}
