import type { PGlite } from '@electric-sql/pglite'
import { type SqlPort, type SqlQuery, type SqlResult, WHOLE_LISTING_BYTES } from './sql-port.js'

type PgliteQuery = Pick<PGlite, 'query'>

const querying = (database: PgliteQuery): SqlQuery['query'] => {
  return async (text, parameters = []): Promise<SqlResult> => {
    const result = await database.query<Record<string, unknown>>(text, [...parameters])
    return { rows: result.rows, affectedRows: result.affectedRows ?? 0 }
  }
}

/** `SqlPort` over a PGlite database, which runs one statement at a time and queues the rest. */
export function pglitePort(database: PGlite): SqlPort {
  return {
    wholeListingBytes: WHOLE_LISTING_BYTES,
    query: querying(database),
    transaction: (work) => database.transaction((transaction) => work({ query: querying(transaction) })),
    close: () => database.close(),
  }
}
