import { randomBytes } from 'node:crypto'

const prefix = `tc-${randomBytes(4).toString('hex')}-`
let counter = 0

/** An opaque token unique per call in this process and unlikely to repeat across processes. */
export function mintCorrelationId(): string {
  counter++
  return prefix + counter
}
