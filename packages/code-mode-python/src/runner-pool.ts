import { totalmem } from 'node:os'
import { InvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { ToolRuntimeError } from 'qilin-tools/internal/errors/tool-runtime-error.js'
import { RunnerProcess, type RunnerSettings } from './runner-process.js'

/** Whether a pool size is usable: a whole number from 0 up (0 spawns every runner on demand). */
export function requirePoolSize(poolSize: number): number {
  if (!Number.isSafeInteger(poolSize) || poolSize < 0) {
    throw new InvalidArgumentError(`poolSize must be a whole number of at least 0, got ${String(poolSize)}`)
  }
  return poolSize
}

/**
 * What one idle pooled runner is taken to hold: measured at about 20 MiB resident (12 MiB proportional) for the
 * confined interpreter and its two bubblewrap processes, rounded up for the kernel memory of its namespaces.
 */
export const IDLE_RUNNER_BYTES = 32 * 1024 * 1024

/** The share of the machine's memory that idle pooled runners may hold, at most. */
export const IDLE_RUNNERS_MEMORY_SHARE = 1 / 64

/**
 * The pool size when none is given: one ready runner for every run admission lets run at once (by count and by
 * summed memory), since a run mostly waits for its tools and a runner beyond those would only idle. Cores do not
 * bound it: an idle runner blocks on its pipe and uses no CPU. Memory does: idle runners hold at most
 * `IDLE_RUNNERS_MEMORY_SHARE` of the machine's memory at `IDLE_RUNNER_BYTES` each (a 24 GiB machine: 12).
 */
export function defaultPoolSize(admitted: {
  readonly maxConcurrentRuns: number
  readonly maxSandboxMemoryBytes: number
  readonly runMemoryBytes: number
  /** @default `os.totalmem()` */
  readonly machineMemoryBytes?: number
}): number {
  const byAdmission = Math.floor(admitted.maxSandboxMemoryBytes / admitted.runMemoryBytes)
  const machineMemoryBytes = admitted.machineMemoryBytes ?? totalmem()
  const byMachine = Math.floor((machineMemoryBytes * IDLE_RUNNERS_MEMORY_SHARE) / IDLE_RUNNER_BYTES)
  return Math.max(1, Math.min(admitted.maxConcurrentRuns, byAdmission, byMachine))
}

/**
 * Runners spawned ahead of time, already confined and waiting for a program, so a run does not pay for
 * interpreter start-up. Each runner serves exactly one run. The pool refills after a run hands its result back,
 * never while runs start: spawning a confined interpreter costs tens of milliseconds of CPU that would land on
 * the runs starting beside it. Never more than `size` wait idle.
 */
export class RunnerPool {
  private readonly idle: RunnerProcess[] = []
  private readonly size: number
  private scheduled = false
  private closed = false

  constructor(
    size: number,
    private readonly settings: RunnerSettings,
  ) {
    this.size = requirePoolSize(size)
    this.refill()
  }

  /** A ready runner, held (it keeps Node alive while it runs). Rejects when one cannot be started. */
  async acquire(): Promise<RunnerProcess> {
    if (this.closed) throw new ToolRuntimeError('the Python PTC runtime is closed')
    while (this.idle.length > 0) {
      const runner = this.idle.shift() as RunnerProcess
      runner.hold(true)
      try {
        await runner.ready
        return runner
      } catch {
        runner.kill()
      }
    }
    const runner = new RunnerProcess(this.settings)
    await runner.ready.catch((error: Error) => {
      runner.kill()
      throw error
    })
    return runner
  }

  /** Tops the pool back up on the next turn of the event loop; a run calls it as it hands its result back. */
  refillSoon(): void {
    if (this.scheduled || this.closed || this.idle.length >= this.size) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      this.refill()
    })
  }

  /** Runners idle in the pool now (ready or still starting). */
  get waiting(): number {
    return this.idle.length
  }

  /** Resolves when every pooled runner has reported ready (or failed), a scheduled refill included. */
  async warm(): Promise<void> {
    if (this.scheduled) await new Promise((resolve) => setImmediate(resolve))
    const waiting = [...this.idle]
    // Held while awaited: an idle runner alone must not let Node exit under a pending warm().
    for (const runner of waiting) runner.hold(true)
    await Promise.all(waiting.map((runner) => runner.ready.catch(() => {})))
    for (const runner of waiting) if (this.idle.includes(runner)) runner.hold(false)
  }

  async close(): Promise<void> {
    this.closed = true
    const runners = this.idle.splice(0)
    for (const runner of runners) runner.hold(true)
    await Promise.all(runners.map((runner) => runner.stop()))
  }

  private refill(): void {
    while (!this.closed && this.idle.length < this.size) {
      const runner = new RunnerProcess(this.settings)
      runner.hold(false)
      this.idle.push(runner)
    }
  }
}
