// `@qilin-tools/store`: deferred approvals and the session log in PostgreSQL or PGlite. Named exports only.

export { createPgliteStore, type PgliteStoreOptions } from './pglite-store.js'
export type { PostgresClient, PostgresPool, PostgresQueryResult } from './postgres-port.js'
export { createPostgresStore, type PostgresStoreOptions } from './postgres-store.js'
export type { SqlParameter, SqlRow } from './sql-port.js'
export type { DatabaseStoreOptions } from './sql-store.js'
export { isStoreError, StoreError, StoreErrorCode } from './store-error.js'
