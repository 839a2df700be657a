/** A value a statement parameter takes: every query is parameterised, nothing is interpolated into its text. */
export type SqlParameter = string | number | boolean | null

/** A row as the driver returns it: column name to value. */
export type SqlRow = Readonly<Record<string, unknown>>

/** What one statement returns. */
export interface SqlResult {
  readonly rows: readonly SqlRow[]
  /** Rows inserted, updated or deleted. */
  readonly affectedRows: number
}

/** Runs one parameterised statement (`$1`, `$2`, …). */
export interface SqlQuery {
  query(text: string, parameters?: readonly SqlParameter[]): Promise<SqlResult>
}

/**
 * The whole of what the store needs from a driver: statements, and a transaction that holds one connection,
 * commits when `work` resolves and rolls back when it rejects. Postgres (`pg`) and PGlite each implement it in a
 * few lines, so both run the same SQL.
 */
export interface SqlPort extends SqlQuery {
  transaction<Result>(work: (transaction: SqlQuery) => Promise<Result>): Promise<Result>
  /** Ends the connections the port opened (a pool the caller passed in is left open). */
  close(): Promise<void>
}
