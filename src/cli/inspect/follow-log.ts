import { open, stat } from 'node:fs/promises'
import { LineSplitter, type LogLine } from './log-lines.js'

/** Reads in chunks of this size, so a huge log streams through the splitter instead of landing in one buffer. */
const CHUNK_BYTES = 256 * 1024

/** A log read so far, and how to read what was appended since. */
export interface LogReader {
  /** The lines appended since the last read; `reset` when the file shrank (rewritten: start over). */
  readMore(): Promise<{ readonly lines: LogLine[]; readonly reset: boolean }>
}

/** Reads `path` from its start; each `readMore` returns the complete lines appended since. */
export function readLog(path: string): LogReader {
  let offset = 0
  let splitter = new LineSplitter()
  let queue: Promise<unknown> = Promise.resolve()
  const readOnce = async () => {
    const size = (await stat(path)).size
    let reset = false
    if (size < offset) {
      offset = 0
      splitter = new LineSplitter()
      reset = true
    }
    const lines: LogLine[] = []
    if (size === offset) return { lines, reset }
    const handle = await open(path, 'r')
    try {
      const buffer = Buffer.alloc(CHUNK_BYTES)
      while (offset < size) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, size - offset), offset)
        if (bytesRead === 0) break
        offset += bytesRead
        for (const line of splitter.push(buffer.subarray(0, bytesRead))) lines.push(line)
      }
    } finally {
      await handle.close()
    }
    return { lines, reset }
  }
  return {
    readMore() {
      // One read at a time: a watch event during a read waits for it instead of reading the same bytes twice.
      const next = queue.then(readOnce, readOnce)
      queue = next
      return next
    },
  }
}
