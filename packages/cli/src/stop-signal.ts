/** The signals that stop the CLI, each with the exit code it ends with: 128 plus the signal's number. */
export const STOP_SIGNALS = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const satisfies Record<string, number>

export type StopSignalName = keyof typeof STOP_SIGNALS
export type StopExitCode = (typeof STOP_SIGNALS)[StopSignalName]

/** What the watch listens on: the real `process`, or a test's emitter. */
export interface SignalSource {
  on(event: StopSignalName, listener: () => void): unknown
  off(event: StopSignalName, listener: () => void): unknown
}

export interface StopSignalOptions {
  readonly source: SignalSource
  /**
   * Ends the process at once: a second signal insisted, or closing outlasted `graceMs`. Given the first signal
   * received, which decides the exit code.
   */
  readonly force: (signal: StopSignalName, why: string) => void
  /** How long closing may take after the first signal before `force` runs. Default 5 000 ms. */
  readonly graceMs?: number
  /**
   * A repeat of the first signal this soon after it is the same stop, delivered twice: `timeout`, `npm run` and
   * `npx` forward a signal to the CLI that the terminal also sends to the CLI's process group. Default 500 ms.
   */
  readonly repeatWindowMs?: number
}

/** The stop request of one CLI process, and how to let go of its listeners. */
export interface StopSignalWatch {
  /** Aborted by the first stop signal; its reason names the signal. Commands cancel and close on it. */
  readonly signal: AbortSignal
  /** The first stop signal received, if any. */
  received(): StopSignalName | undefined
  /** Stops listening and cancels a pending `force` (the command closed in time). */
  dispose(): void
}

const DEFAULT_GRACE_MS = 5_000
const DEFAULT_REPEAT_WINDOW_MS = 500

/**
 * Listens for SIGINT, SIGTERM and SIGHUP. The first aborts `signal` and starts the grace period; a second stop
 * signal after the repeat window, or the end of the grace period, calls `force`. Listening replaces Node's default
 * of dying on the spot, which would leave detached children (bash, runners, servers) running.
 */
export function watchStopSignals(options: StopSignalOptions): StopSignalWatch {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS
  const repeatWindowMs = options.repeatWindowMs ?? DEFAULT_REPEAT_WINDOW_MS
  const controller = new AbortController()
  let first: { readonly name: StopSignalName; readonly at: number } | undefined
  let grace: ReturnType<typeof setTimeout> | undefined
  let forced = false

  const force = (why: string) => {
    if (forced || first === undefined) return
    forced = true
    clearTimeout(grace)
    options.force(first.name, why)
  }
  const receive = (name: StopSignalName) => {
    if (first === undefined) {
      first = { name, at: Date.now() }
      // Unreferenced: a CLI that closed in time exits without waiting for it.
      grace = setTimeout(() => force(`closing took longer than ${graceMs} ms`), graceMs)
      grace.unref?.()
      controller.abort(new Error(`stopped by ${name}`))
      return
    }
    if (name === first.name && Date.now() - first.at < repeatWindowMs) return
    force(`a second stop signal (${name}) arrived while closing`)
  }
  const listeners = Object.keys(STOP_SIGNALS).map((name) => {
    const listener = () => receive(name as StopSignalName)
    options.source.on(name as StopSignalName, listener)
    return [name as StopSignalName, listener] as const
  })

  return {
    signal: controller.signal,
    received: () => first?.name,
    dispose() {
      clearTimeout(grace)
      for (const [name, listener] of listeners) options.source.off(name, listener)
    },
  }
}
