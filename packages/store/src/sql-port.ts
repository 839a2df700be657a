/**
 * The largest listing PGlite takes back as one text: the default maxRecordBytes (16 MiB), far below PostgreSQL's
 * 1 GB a value, V8's 512 MiB a string and PGlite's WebAssembly memory. A listing past it (large model-written
 * arguments, or very many records) comes back a row per record instead of failing.
 */
export const WHOLE_LISTING_BYTES = 16 * 1024 * 1024

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
  /**
   * The largest approval listing the driver takes back whole, as one JSON text, in bytes of record text; past it, or
   * at 0, a row per record. `WHOLE_LISTING_BYTES` for PGlite, which pays per row it decodes; 0 for `pg`, which
   * decodes rows while the server still sends them (bench/approvals.bench.ts).
   */
  readonly wholeListingBytes: number
  transaction<Result>(work: (transaction: SqlQuery) => Promise<Result>): Promise<Result>
  /** Ends the connections the port opened (a pool the caller passed in is left open). */
  close(): Promise<void>
}
