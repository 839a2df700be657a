import { randomBytes } from 'node:crypto'

const prefix = `tc-${randomBytes(4).toString('hex')}-`

// The counter is written in decimal from two parts: its thousands, formatted once every thousand calls, and its last
// three digits, taken from a table. Formatting a fresh number on every call took V8's slow number-to-string path, a
// tenth of a call's instructions on the pipeline bench's rows. The counter starts at 1000, so every token has both.
const lastDigits = Array.from({ length: 1000 }, (_, index) => String(index).padStart(3, '0'))
let thousands = 0
let last = 999
let head = prefix

/** An opaque token unique per call in this process and unlikely to repeat across processes. */
export function mintCorrelationId(): string {
  last++
  if (last === 1000) {
    last = 0
    thousands++
    head = prefix + thousands
  }
  return head + lastDigits[last]!
}
