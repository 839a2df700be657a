import type { ToolError } from 'qilin-tools/internal/errors/tool-error.js'
import type { ByteLimit } from './file-limits.js'
import type { OpenedFile } from './open-regular-file.js'
import { failure } from './workspace.js'

/**
 * The whole content of an opened file, within `limit`: refused from `fstat` before a byte is read, and, should
 * the file grow while it is read, after at most `maxBytes + 1` bytes.
 */
export async function readWithinLimit(
  file: OpenedFile,
  shown: string,
  limit: ByteLimit,
  signal: AbortSignal,
): Promise<Buffer> {
  if (file.size > limit.maxBytes) throw tooLarge(shown, file.size, limit)
  // One byte past the size fstat gave, so one read both takes the file and sees its end.
  let buffer = Buffer.allocUnsafe(file.size + 1)
  let total = 0
  for (;;) {
    signal.throwIfAborted()
    const { bytesRead } = await file.handle.read(buffer, total, buffer.length - total, total)
    total += bytesRead
    if (total < buffer.length) return buffer.subarray(0, total)
    if (total > limit.maxBytes) throw grew(shown, limit)
    const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit.maxBytes + 1))
    buffer.copy(larger)
    buffer = larger
  }
}

/** Replaces an opened file's content with `bytes` (written from the start, then cut to their length). */
export async function replaceContent(file: OpenedFile, bytes: Uint8Array, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted()
  let written = 0
  while (written < bytes.length) {
    const { bytesWritten } = await file.handle.write(bytes, written, bytes.length - written, written)
    written += bytesWritten
  }
  await file.handle.truncate(bytes.length)
}

function tooLarge(shown: string, size: number, limit: ByteLimit): ToolError {
  return failure(`"${shown}" is ${size} bytes, over the ${limit.maxBytes} byte limit${limit.advice}`)
}

function grew(shown: string, limit: ByteLimit): ToolError {
  return failure(`"${shown}" grew past the ${limit.maxBytes} byte limit while it was being read${limit.advice}`)
}
