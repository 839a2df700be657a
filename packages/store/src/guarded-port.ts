import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import type { SqlPort, SqlQuery } from './sql-port.js'
import { isStoreError, StoreError, StoreErrorCode } from './store-error.js'

function asStoreError(error: unknown): unknown {
  if (isStoreError(error)) return error
  return new StoreError(StoreErrorCode.QUERY_FAILED, `the database failed: ${thrownMessage(error)}`, { cause: error })
}

const guardedQuery =
  (target: SqlQuery): SqlQuery['query'] =>
  (text, parameters) =>
    target.query(text, parameters).catch((error: unknown) => Promise.reject(asStoreError(error)))

/**
 * The port with every driver failure (a refused statement, a refused or dropped connection) turned into
 * `STORE_QUERY_FAILED` with the driver's error as its `cause`; the store's own errors pass through as they are.
 */
export function guardedPort(port: SqlPort): SqlPort {
  return {
    wholeListingBytes: port.wholeListingBytes,
    query: guardedQuery(port),
    transaction: (work) =>
      port
        .transaction((transaction) => work({ query: guardedQuery(transaction) }))
        .catch((error: unknown) => Promise.reject(asStoreError(error))),
    close: () => port.close(),
  }
}
