import type { McpAutoReconnect, McpConnectionStatus } from './mcp-connection-types.js'

export interface AutoReconnect {
  /** Starts the attempts, unless they already run. */
  start(): void
  /** Stops waiting; an attempt in progress finishes. */
  cancel(): void
}

/**
 * Retries `reconnect` with exponential backoff while the connection stays failed. It stops at the first success,
 * when something else changed the state (a manual reconnect, dispose), or after the last attempt.
 */
export function createAutoReconnect(
  policy: McpAutoReconnect,
  stillFailed: () => boolean,
  reconnect: () => Promise<McpConnectionStatus>,
): AutoReconnect {
  const attempts = policy.attempts ?? 5
  const initialDelayMs = policy.initialDelayMs ?? 500
  const maxDelayMs = policy.maxDelayMs ?? 10_000
  let running = false
  let timer: NodeJS.Timeout | undefined
  let wake: (() => void) | undefined

  const wait = (milliseconds: number) =>
    new Promise<void>((resolve) => {
      wake = resolve
      timer = setTimeout(resolve, milliseconds)
      timer.unref()
    })

  const run = async () => {
    for (let attempt = 0; attempt < attempts; attempt++) {
      await wait(Math.min(initialDelayMs * 2 ** attempt, maxDelayMs))
      if (!running || !stillFailed()) break
      if ((await reconnect()).state === 'connected') break
    }
    running = false
  }

  return {
    start() {
      if (running) return
      running = true
      void run()
    },
    cancel() {
      running = false
      clearTimeout(timer)
      wake?.()
    },
  }
}
