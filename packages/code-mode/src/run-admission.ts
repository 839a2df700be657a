import { InvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { type PtcFailure, PtcFailureKind } from './failure-kinds.js'

/** How many code-mode runs one runtime lets run at once, and how many may wait for a turn. */
export interface RunAdmissionLimits {
  /** Runs at once. */
  readonly maxConcurrentRuns: number
  /** Declared per-run memory, summed over the runs running at once. */
  readonly maxSandboxMemoryBytes: number
  /** Runs waiting for a turn; one more fails at once. */
  readonly maxQueuedRuns: number
}

/** What one run asks of the gate: the memory it declares, when its deadline falls, and its signal. */
export interface AdmissionRequest {
  readonly memoryBytes: number
  /** `performance.now()` at which the run's deadline passes; time spent waiting counts against it. */
  readonly deadlineAt: number
  readonly signal: AbortSignal
}

/**
 * Admitted, with how long the run waited (0 when it started at once; call `release` when the run ends, however it
 * ends), or refused with why.
 */
export type Admission =
  | { readonly ok: true; readonly waitedMs: number; release(): void }
  | { readonly ok: false; readonly failure: PtcFailure }

interface Waiter {
  readonly memoryBytes: number
  readonly admit: () => void
}

/**
 * The gate in front of a runtime's sandboxes: at most `maxConcurrentRuns` running and at most
 * `maxSandboxMemoryBytes` of declared memory among them; others wait first in, first out, each until its own
 * deadline or abort, and past `maxQueuedRuns` waiting a run is refused at once.
 */
export class RunAdmission {
  readonly limits: RunAdmissionLimits
  readonly #queue: Waiter[] = []
  #running = 0
  #memoryInUse = 0

  constructor(limits: RunAdmissionLimits, largestRunBytes: number) {
    requireCount('maxConcurrentRuns', limits.maxConcurrentRuns, 1)
    requireCount('maxQueuedRuns', limits.maxQueuedRuns, 0)
    requireCount('maxSandboxMemoryBytes', limits.maxSandboxMemoryBytes, 1)
    if (limits.maxSandboxMemoryBytes < largestRunBytes) {
      throw new InvalidArgumentError(
        `maxSandboxMemoryBytes (${limits.maxSandboxMemoryBytes}) is below one run's memory limit (${largestRunBytes}): no run could ever start`,
      )
    }
    this.limits = limits
  }

  /** Runs holding a turn now. */
  get running(): number {
    return this.#running
  }

  /** Runs waiting for a turn now. */
  get queued(): number {
    return this.#queue.length
  }

  /** Waits for a turn; resolves refused when the queue is full, the deadline passes or the signal aborts first. */
  admit(request: AdmissionRequest): Promise<Admission> {
    if (request.signal.aborted) return Promise.resolve(refused(PtcFailureKind.ABORTED, 'the run was cancelled'))
    if (this.#queue.length === 0 && this.#fits(request.memoryBytes)) {
      return Promise.resolve(this.#take(request.memoryBytes, 0))
    }
    if (this.#queue.length >= this.limits.maxQueuedRuns) return Promise.resolve(this.#busy())
    return new Promise((resolve) => {
      const waitedFrom = performance.now()
      const leave = (admission: Admission): void => {
        clearTimeout(timer)
        request.signal.removeEventListener('abort', onAbort)
        resolve(admission)
      }
      const waiter: Waiter = {
        memoryBytes: request.memoryBytes,
        admit: () => leave(this.#take(request.memoryBytes, performance.now() - waitedFrom)),
      }
      const giveUp = (admission: Admission): void => {
        this.#queue.splice(this.#queue.indexOf(waiter), 1)
        leave(admission)
        this.#drain()
      }
      const onAbort = (): void =>
        giveUp(refused(PtcFailureKind.ABORTED, 'the run was cancelled while it waited to start'))
      const timer = setTimeout(
        () => {
          const waited = Math.round(performance.now() - waitedFrom)
          const message = `the deadline passed after ${waited} ms waiting for a free sandbox; the program never started (retry later or run fewer programs at once)`
          giveUp(refused(PtcFailureKind.DEADLINE, message))
        },
        Math.max(0, request.deadlineAt - performance.now()),
      )
      request.signal.addEventListener('abort', onAbort, { once: true })
      this.#queue.push(waiter)
    })
  }

  #fits(memoryBytes: number): boolean {
    return (
      this.#running < this.limits.maxConcurrentRuns &&
      this.#memoryInUse + memoryBytes <= this.limits.maxSandboxMemoryBytes
    )
  }

  #take(memoryBytes: number, waitedMs: number): Admission {
    this.#running += 1
    this.#memoryInUse += memoryBytes
    let released = false
    return {
      ok: true,
      waitedMs,
      release: () => {
        if (released) return
        released = true
        this.#running -= 1
        this.#memoryInUse -= memoryBytes
        this.#drain()
      },
    }
  }

  /** Admits from the head while the head fits; a run never overtakes an earlier one. */
  #drain(): void {
    for (let head = this.#queue[0]; head !== undefined && this.#fits(head.memoryBytes); head = this.#queue[0]) {
      this.#queue.shift()
      head.admit()
    }
  }

  #busy(): Admission {
    const { maxConcurrentRuns, maxQueuedRuns } = this.limits
    return refused(
      PtcFailureKind.BUSY,
      `${this.#running} programs are running and ${this.#queue.length} are waiting, the most this host allows (${maxConcurrentRuns} running, ${maxQueuedRuns} waiting); the program did not start: retry later or run fewer programs at once`,
    )
  }
}

function refused(kind: PtcFailure['kind'], message: string): Admission {
  return { ok: false, failure: { kind, message } }
}

function requireCount(name: string, value: number, least: number): void {
  if (!Number.isSafeInteger(value) || value < least) {
    throw new InvalidArgumentError(`${name} must be a whole number of at least ${least}, got ${String(value)}`)
  }
}
