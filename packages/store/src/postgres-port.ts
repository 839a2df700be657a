import type { SqlParameter, SqlPort, SqlQuery, SqlResult, SqlRow } from './sql-port.js'

/** What one `pg` query answers, as far as the store reads it. */
export interface PostgresQueryResult {
  readonly rows: readonly SqlRow[]
  readonly rowCount: number | null
}

/** A connection checked out of a pool (`pg`'s `PoolClient` is one). */
export interface PostgresClient {
  query(text: string, values?: SqlParameter[]): Promise<PostgresQueryResult>
  /** Returns it to the pool; with an error (or `true`) the connection is closed instead of reused. */
  release(destroy?: boolean | Error): void
}

/** The part of a `pg` `Pool` the store uses, so a host's own pool (or a compatible one) can be passed in. */
export interface PostgresPool {
  query(text: string, values?: SqlParameter[]): Promise<PostgresQueryResult>
  connect(): Promise<PostgresClient>
  end(): Promise<void>
}

const asResult = (result: PostgresQueryResult): SqlResult => ({ rows: result.rows, affectedRows: result.rowCount ?? 0 })

/** `SqlPort` over a `pg` pool. `owned`: the store created the pool, so closing the store ends it. */
export function postgresPort(pool: PostgresPool, owned: boolean): SqlPort {
  return {
    wholeListingBytes: 0,
    async query(text, parameters = []) {
      return asResult(await pool.query(text, [...parameters]))
    },
    async transaction(work) {
      const client = await pool.connect()
      const transaction: SqlQuery = {
        query: async (text, parameters = []) => asResult(await client.query(text, [...parameters])),
      }
      try {
        await client.query('BEGIN')
        const result = await work(transaction)
        await client.query('COMMIT')
        client.release()
        return result
      } catch (error) {
        // A connection that cannot even roll back is broken: close it rather than hand it to the next caller.
        const rolledBack = await client.query('ROLLBACK').then(
          () => true,
          () => false,
        )
        client.release(!rolledBack)
        throw error
      }
    },
    async close() {
      if (owned) await pool.end()
    },
  }
}
