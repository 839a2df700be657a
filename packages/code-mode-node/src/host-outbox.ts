/**
 * What the host sends one sandbox, batched: each message waits until the isolate asks (an exchange, which takes
 * everything ready) or until the next turn of the event loop, then goes as one JSON array. An exchange is answered
 * as soon as no call of the run is still running, and in any case on that next turn, so the isolate's thread never
 * waits longer than one turn for a slow tool: its result follows later by `push`.
 */
export class HostOutbox {
  readonly #push: (text: string) => void
  readonly #idle: () => boolean
  #texts: string[] = []
  #answer: ((text: string) => void) | undefined
  /** The next turn's flush; cleared when a flush leaves it nothing to do, so a fast call costs no extra turn. */
  #turn: ReturnType<typeof setImmediate> | undefined
  #closed = false

  /**
   * @param push hands a batch to the isolate without waiting (a task it runs when free)
   * @param idle whether the run has no call still running (nothing more will arrive this turn)
   */
  constructor(push: (text: string) => void, idle: () => boolean) {
    this.#push = push
    this.#idle = idle
  }

  /** One host message, as JSON text. */
  add(text: string): void {
    if (this.#closed) return
    this.#texts.push(text)
    if (this.#answer !== undefined && this.#idle()) this.#flush()
    else this.#schedule()
  }

  /** The answer to an exchange: what is ready when nothing is still running, or on the next turn at the latest. */
  answer(): Promise<string> {
    if (this.#closed) return Promise.resolve('')
    return new Promise((resolve) => {
      this.#answer?.('')
      this.#answer = resolve
      if (this.#texts.length > 0 && this.#idle()) this.#flush()
      else this.#schedule()
    })
  }

  /** The run is over: a waiting exchange is answered with nothing, and nothing more is sent. */
  close(): void {
    this.#closed = true
    this.#texts = []
    this.#cancelTurn()
    const answer = this.#answer
    this.#answer = undefined
    answer?.('')
  }

  #schedule(): void {
    this.#turn ??= setImmediate(this.#onTurn)
  }

  readonly #onTurn = (): void => {
    this.#turn = undefined
    if (!this.#closed) this.#flush()
  }

  #cancelTurn(): void {
    if (this.#turn === undefined) return
    clearImmediate(this.#turn)
    this.#turn = undefined
  }

  #flush(): void {
    const answer = this.#answer
    this.#answer = undefined
    const text = this.#texts.length === 0 ? '' : `[${this.#texts.join(',')}]`
    this.#texts = []
    this.#cancelTurn()
    if (answer !== undefined) answer(text)
    else if (text !== '') this.#push(text)
  }
}
