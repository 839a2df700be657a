/** The longest line the inspector parses; a longer one is shown as malformed, never held whole. */
export const MAX_LINE_BYTES = 1024 * 1024

/** One line of the log as bytes arrived: its text, or why it is not parsed. */
export type LogLine =
  | { readonly ok: true; readonly number: number; readonly text: string }
  | { readonly ok: false; readonly number: number; readonly reason: string; readonly preview: string }

const PREVIEW_CHARS = 200

/**
 * Splits a growing byte stream into lines. A line longer than `MAX_LINE_BYTES` is dropped as it streams (only its
 * start is kept, for the preview), so a hostile log cannot make the server hold a gigabyte line.
 */
export class LineSplitter {
  #pending: Buffer[] = []
  #pendingBytes = 0
  #overflow = false
  #number = 0

  /** The complete lines in `chunk` (with what came before it); the unfinished tail waits for more. */
  push(chunk: Buffer): LogLine[] {
    const lines: LogLine[] = []
    let start = 0
    for (;;) {
      const newline = chunk.indexOf(0x0a, start)
      if (newline === -1) break
      this.#take(chunk.subarray(start, newline))
      lines.push(this.#finish())
      start = newline + 1
    }
    if (start < chunk.length) this.#take(chunk.subarray(start))
    return lines.filter((line) => line.ok === false || line.text.trim().length > 0)
  }

  /** The tail without a newline: a write still under way, or torn by a crash. */
  get pendingBytes(): number {
    return this.#pendingBytes
  }

  #take(part: Buffer): void {
    this.#pendingBytes += part.length
    if (this.#overflow) return
    if (this.#pendingBytes > MAX_LINE_BYTES) {
      this.#overflow = true
      const kept = Buffer.concat(this.#pending).subarray(0, PREVIEW_CHARS)
      this.#pending = [kept]
      return
    }
    this.#pending.push(Buffer.from(part))
  }

  #finish(): LogLine {
    this.#number++
    const bytes = Buffer.concat(this.#pending)
    const size = this.#pendingBytes
    const overflow = this.#overflow
    this.#pending = []
    this.#pendingBytes = 0
    this.#overflow = false
    if (overflow) {
      return {
        ok: false,
        number: this.#number,
        reason: `line of ${size} bytes is longer than ${MAX_LINE_BYTES}`,
        preview: preview(bytes.toString('utf8')),
      }
    }
    return { ok: true, number: this.#number, text: bytes.toString('utf8') }
  }
}

export function preview(text: string): string {
  return text.length <= PREVIEW_CHARS ? text : `${text.slice(0, PREVIEW_CHARS)}…`
}
