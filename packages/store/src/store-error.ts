import { brandError } from 'qilin-tools/internal/errors/brand.js'

/** Why a database store refused or failed a call. Stable strings: hosts branch on them. */
export const StoreErrorCode = {
  /** The driver package (`pg` or `@electric-sql/pglite`) is not installed; the message names it. */
  DRIVER_MISSING: 'STORE_DRIVER_MISSING',
  /** The store was closed; it takes no more calls. */
  CLOSED: 'STORE_CLOSED',
  /** `putApproval` with an `approvalId` the store already holds. */
  DUPLICATE_APPROVAL: 'STORE_DUPLICATE_APPROVAL',
  /** A record's JSON is larger than `maxRecordBytes`; nothing was written. */
  RECORD_TOO_LARGE: 'STORE_RECORD_TOO_LARGE',
  /** A record's value cannot be written as JSON (nested deeper than the stack allows); nothing was written. */
  INVALID_RECORD: 'STORE_INVALID_RECORD',
  /** The database was migrated by a newer release than this one; it is left untouched. */
  SCHEMA_TOO_NEW: 'STORE_SCHEMA_TOO_NEW',
  /** The database refused a statement or could not be reached (the driver's error is the `cause`). */
  QUERY_FAILED: 'STORE_QUERY_FAILED',
} as const

/** The union of every code a `StoreError` carries. */
export type StoreErrorCode = (typeof StoreErrorCode)[keyof typeof StoreErrorCode]

/** A database store's failure, with a stable `code`; a driver's own error, when there was one, is the `cause`. */
export class StoreError extends Error {
  readonly code: StoreErrorCode

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'StoreError'
    this.code = code
  }
}

/** Recognises a StoreError from any copy of this package or realm. */
export const isStoreError = brandError(StoreError, 'StoreError')
