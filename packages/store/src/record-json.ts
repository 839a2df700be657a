import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import { StoreError, StoreErrorCode } from './store-error.js'

/** The default bound on one record's JSON, in UTF-8 bytes. */
export const DEFAULT_MAX_RECORD_BYTES = 16 * 1024 * 1024

/**
 * The JSON text of each value, refused whole with `STORE_RECORD_TOO_LARGE` when together they pass `maxBytes`
 * (`what` names the record in the message): a record is stored entire or not at all, never cut.
 */
export function recordJson(values: readonly unknown[], maxBytes: number, what: string): string[] {
  let texts: string[]
  try {
    texts = values.map((value) => JSON.stringify(value))
  } catch (error) {
    throw new StoreError(StoreErrorCode.INVALID_RECORD, `${what} cannot be written as JSON: ${thrownMessage(error)}`, {
      cause: error,
    })
  }
  let bytes = 0
  for (const text of texts) bytes += text.length
  // UTF-8 takes at most 3 bytes per UTF-16 unit: count exactly only when the quick bound could pass the limit.
  if (bytes * 3 > maxBytes) {
    bytes = 0
    for (const text of texts) bytes += Buffer.byteLength(text, 'utf8')
  }
  if (bytes > maxBytes) {
    throw new StoreError(
      StoreErrorCode.RECORD_TOO_LARGE,
      `${what} is ${bytes} bytes of JSON, more than the store's maxRecordBytes (${maxBytes}); nothing was written`,
    )
  }
  return texts
}
