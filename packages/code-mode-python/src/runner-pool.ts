import { ToolRuntimeError } from 'qilin-tools/internal/errors/tool-runtime-error.js'
import { RunnerProcess, type RunnerSettings } from './runner-process.js'

/**
 * Runners spawned ahead of time, already confined and waiting for a program, so a run does not pay for
 * interpreter start-up. Each runner serves exactly one run; the pool refills behind it.
 */
export class RunnerPool {
  private readonly idle: RunnerProcess[] = []
  private closed = false

  constructor(
    private readonly size: number,
    private readonly settings: RunnerSettings,
  ) {
    this.refill()
  }

  /** A ready runner, held (it keeps Node alive while it runs). Rejects when one cannot be started. */
  async acquire(): Promise<RunnerProcess> {
    if (this.closed) throw new ToolRuntimeError('the Python PTC runtime is closed')
    while (this.idle.length > 0) {
      const runner = this.idle.shift() as RunnerProcess
      runner.hold(true)
      this.refill()
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

  /** Resolves when every pooled runner has reported ready (or failed). */
  async warm(): Promise<void> {
    const waiting = [...this.idle]
    // Held while awaited: an idle runner alone must not let Node exit under a pending warm().
    for (const runner of waiting) runner.hold(true)
    await Promise.all(waiting.map((runner) => runner.ready.catch(() => {})))
    for (const runner of waiting) if (this.idle.includes(runner)) runner.hold(false)
  }

  async close(): Promise<void> {
    this.closed = true
    const runners = this.idle.splice(0)
    for (const runner of runners) {
      runner.hold(true)
      runner.kill()
    }
    await Promise.all(runners.map((runner) => runner.exited))
  }

  private refill(): void {
    while (!this.closed && this.idle.length < this.size) {
      const runner = new RunnerProcess(this.settings)
      runner.hold(false)
      this.idle.push(runner)
    }
  }
}
