import { setImmediate as nextTurn } from 'node:timers/promises'

/** How long synchronous work over one file may hold the event loop before it lets other work run. */
const BUDGET_MS = 8

export interface TimeSlice {
  /** Cheap enough to call every iteration: true once the slice's budget is spent (then `pause`). */
  due(): boolean
  /** Lets the event loop run timers and I/O, then starts a new slice; throws if the signal was aborted meanwhile. */
  pause(signal: AbortSignal): Promise<void>
}

/**
 * Splits a long loop into slices of about 8 ms so that one large file never stalls the host's other work.
 * `checkEvery` iterations pass between clock reads; lower it when each iteration is expensive.
 */
export function createTimeSlice(checkEvery = 1024): TimeSlice {
  let started = performance.now()
  let countdown = checkEvery
  return {
    due() {
      if (--countdown > 0) return false
      countdown = checkEvery
      return performance.now() - started >= BUDGET_MS
    },
    async pause(signal) {
      await nextTurn()
      signal.throwIfAborted()
      started = performance.now()
    },
  }
}
