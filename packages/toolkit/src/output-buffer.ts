export const MAX_OUTPUT_BYTES = 64 * 1024

/** Keeps the first `MAX_OUTPUT_BYTES` of a stream and remembers whether more came. */
export class OutputBuffer {
  private readonly chunks: Buffer[] = []
  private size = 0
  truncated = false

  append(chunk: Buffer): void {
    const room = MAX_OUTPUT_BYTES - this.size
    if (chunk.length > room) this.truncated = true
    if (room <= 0) return
    const kept = chunk.subarray(0, room)
    this.chunks.push(kept)
    this.size += kept.length
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8')
  }
}
