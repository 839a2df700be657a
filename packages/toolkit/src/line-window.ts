import { createTimeSlice } from './time-slice.js'

const LINE_FEED = 0x0a
/** Bytes scanned between looks at the clock. */
const CHUNK_BYTES = 64 * 1024

export interface LineWindow {
  /** The window's lines joined by `\n`; a `\r` before a line break is dropped. */
  readonly content: string
  /** The window's last line; `startLine - 1` when the window is empty. */
  readonly endLine: number
  /** Lines in the file; a final line break does not start another line. */
  readonly totalLines: number
}

/**
 * Lines `startLine` (1-based) to `startLine + limit - 1` of UTF-8 text. Lines are found by one pass over the bytes,
 * in time slices, and only the window is decoded, so a file of nothing but line breaks makes no string per line.
 */
export async function lineWindow(
  bytes: Buffer,
  startLine: number,
  limit: number,
  signal: AbortSignal,
): Promise<LineWindow> {
  const slice = createTimeSlice(1)
  const length = bytes.length
  const lastLine = startLine + limit - 1
  let line = 1
  let start = startLine === 1 ? 0 : -1
  let end = -1
  for (let chunk = 0; chunk < length; chunk += CHUNK_BYTES) {
    const chunkEnd = Math.min(length, chunk + CHUNK_BYTES)
    for (let index = chunk; index < chunkEnd; index++) {
      if (bytes[index] !== LINE_FEED) continue
      if (line === lastLine) end = index
      line++
      if (line === startLine) start = index + 1
    }
    if (slice.due()) await slice.pause(signal)
  }
  const endsWithBreak = length > 0 && bytes[length - 1] === LINE_FEED
  const totalLines = length === 0 ? 0 : endsWithBreak ? line - 1 : line
  if (startLine > totalLines) return { content: '', endLine: startLine - 1, totalLines }
  if (end === -1) end = endsWithBreak ? length - 1 : length
  const lines = bytes.toString('utf8', start, end).split('\n')
  // Each line but the file's unterminated last one ended in `\n`, so a `\r` at its end was part of the break.
  const unterminated = end === length
  const content = lines
    .map((text, index) =>
      (index === lines.length - 1 && unterminated) || !text.endsWith('\r') ? text : text.slice(0, -1),
    )
    .join('\n')
  return { content, endLine: Math.min(totalLines, lastLine), totalLines }
}
