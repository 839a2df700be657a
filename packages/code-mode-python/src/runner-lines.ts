import type { JsonObject } from 'qilin-tools/internal/json-schema/json-value.js'

/** What the host makes of one line from the runner. */
export type RunnerLine =
  | { readonly kind: 'message'; readonly message: JsonObject }
  /** A call whose arguments are over the limit: dropped unparsed, to be answered with a refusal. */
  | { readonly kind: 'oversized-call'; readonly id: number; readonly name: string }
  /** The channel broke the protocol; nothing after it is read. */
  | { readonly kind: 'violation'; readonly problem: string }

export interface RunnerLineLimits {
  /** Longest line, in UTF-16 units (each at least one UTF-8 byte), read as a message. */
  readonly maxLineBytes: number
  /** Longest arguments of a call, as JSON text; undefined until a program runs. */
  readonly maxArgumentBytes?: number | undefined
}

/**
 * How the runner writes a call (runner.py, `json.dumps` keeps insertion order), up to where its arguments
 * begin. Bounded and unambiguous, so matching it is linear in the head.
 */
const CALL_HEAD = /^\{"t":"call","id":(\d{1,15}),"name":("(?:[^"\\]|\\.){0,512}"),"args":/
const HEAD_LENGTH = 1100

/**
 * Splits the runner's channel text into lines and reads each one as a JSON message, in time linear in the text.
 * Every size is checked before parsing: a line past `maxLineBytes` is a violation, and a call whose arguments
 * pass `maxArgumentBytes` is recognised by its head and skipped to its end without being kept, so a program
 * sending 30 MB of arguments costs the host neither the memory nor the parse.
 */
export class RunnerLines {
  private pieces: string[] = []
  private length = 0
  private head = ''
  /** The rest of an oversized call's line is still arriving and is thrown away. */
  private skipping = false
  private broken = false

  constructor(private readonly limits: () => RunnerLineLimits) {}

  /** The lines `text` completes (and an oversized call as soon as it is seen), in order. */
  read(text: string): RunnerLine[] {
    const lines: RunnerLine[] = []
    let start = 0
    while (!this.broken && start < text.length) {
      const newline = text.indexOf('\n', start)
      const end = newline === -1 ? text.length : newline
      if (!this.skipping) this.take(text.slice(start, end), lines)
      if (newline !== -1) {
        if (this.skipping) this.skipping = false
        else if (!this.broken) this.finishLine(lines)
      }
      start = end + 1
    }
    return lines
  }

  private take(piece: string, lines: RunnerLine[]): void {
    if (piece === '') return
    this.pieces.push(piece)
    this.length += piece.length
    if (this.head.length < HEAD_LENGTH) this.head += piece.slice(0, HEAD_LENGTH - this.head.length)
    const { maxLineBytes, maxArgumentBytes } = this.limits()
    if (maxArgumentBytes !== undefined && this.length > maxArgumentBytes) {
      const call = CALL_HEAD.exec(this.head)
      // Less the closing brace, which may already be here.
      if (call !== null && this.length - call[0].length - 1 > maxArgumentBytes) {
        const name = parseName(call[2]!)
        this.reset()
        if (name === undefined) {
          lines.push({ kind: 'violation', problem: 'the runner sent a line that is not JSON' })
          this.broken = true
        } else {
          lines.push({ kind: 'oversized-call', id: Number(call[1]), name })
          this.skipping = true
        }
        return
      }
    }
    if (this.length > maxLineBytes) {
      lines.push({ kind: 'violation', problem: `the runner sent a message over ${maxLineBytes} bytes` })
      this.reset()
      this.broken = true
    }
  }

  private finishLine(lines: RunnerLine[]): void {
    const line = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join('')
    this.reset()
    if (line === '') return
    let message: unknown
    try {
      message = JSON.parse(line)
    } catch {
      lines.push({ kind: 'violation', problem: 'the runner sent a line that is not JSON' })
      this.broken = true
      return
    }
    if (typeof message === 'object' && message !== null && !Array.isArray(message)) {
      lines.push({ kind: 'message', message: message as JsonObject })
    }
  }

  private reset(): void {
    this.pieces = []
    this.length = 0
    this.head = ''
  }
}

/** The tool name of a call head, or undefined when its escapes are not JSON (`"\q"`, a raw control character). */
function parseName(literal: string): string | undefined {
  try {
    return JSON.parse(literal) as string
  } catch {
    return undefined
  }
}
