/**
 * The host timers of one program, keyed by the program's ids: never more than `maxPending` alive at once, and an id
 * already alive is refused rather than replaced (a replaced timer would keep running unseen). Each fires once.
 */
export class ProgramTimers {
  readonly #live = new Map<number, ReturnType<typeof setTimeout>>()
  readonly #maxPending: number
  readonly #fire: (id: number) => void

  constructor(maxPending: number, fire: (id: number) => void) {
    this.#maxPending = maxPending
    this.#fire = fire
  }

  /** Starts timer `id`; `reused` or `full` when it cannot, and nothing was started. */
  set(id: number, delayMs: number): 'set' | 'reused' | 'full' {
    if (this.#live.has(id)) return 'reused'
    if (this.#live.size >= this.#maxPending) return 'full'
    const timer = setTimeout(() => {
      this.#live.delete(id)
      this.#fire(id)
    }, delayMs)
    this.#live.set(id, timer)
    return 'set'
  }

  clear(id: number): void {
    clearTimeout(this.#live.get(id))
    this.#live.delete(id)
  }

  clearAll(): void {
    for (const timer of this.#live.values()) clearTimeout(timer)
    this.#live.clear()
  }
}
