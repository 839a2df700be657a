import { InvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'

/** Default cap on the bytes `read_file` reads, `edit_file` reads and builds, and `write_file` writes. */
export const DEFAULT_FILE_BYTES = 10 * 1024 * 1024
/** Default cap on one file `grep` searches. */
export const DEFAULT_GREP_FILE_BYTES = 5 * 1024 * 1024
/** Above this a single Buffer or string of the file is no longer a safe thing for the host to hold. */
const MAX_CONFIGURABLE_BYTES = 1024 * 1024 * 1024

/** How many bytes a tool may take in, and what the refusal tells the model to do instead. */
export interface ByteLimit {
  readonly maxBytes: number
  /** Appended to the refusal, starting with "; ", for example "; search it with grep instead". */
  readonly advice: string
}

/** The configured byte cap, or the default; throws an `InvalidArgumentError` naming the option when it is not usable. */
export function byteLimitOption(value: number | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_CONFIGURABLE_BYTES) {
    throw new InvalidArgumentError(
      `${option} must be a whole number of bytes from 1 to ${MAX_CONFIGURABLE_BYTES}, not ${value}`,
    )
  }
  return value
}

/** "5 MB" for whole mebibytes, else "1234 bytes": how tool descriptions show a limit. */
export function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`
}
