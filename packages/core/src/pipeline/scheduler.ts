import type { ExecutionMode } from '../definition/tool-definition.js'

interface Job {
  readonly mode: ExecutionMode
  readonly start: () => void
}

/** Runs tasks in submission order under the native concurrency contract. */
export interface Scheduler {
  /** `task` must not reject; its promise is handed back as is. */
  schedule<Value>(mode: ExecutionMode, task: () => Promise<Value>): Promise<Value>
}

/**
 * A FIFO queue: a parallel task starts when nothing exclusive runs and fewer than `maxParallel` tasks run; an exclusive
 * task starts only when nothing runs, and holds back everything submitted after it. So an exclusive task runs alone and
 * keeps its place relative to every other task, and parallel neighbours overlap up to the cap.
 */
export function createScheduler(maxParallel: number): Scheduler {
  const queue: Job[] = []
  let running = 0
  let exclusiveRunning = false

  const pump = () => {
    while (queue.length > 0 && !exclusiveRunning) {
      const head = queue[0]!
      if (head.mode === 'exclusive' ? running > 0 : running >= maxParallel) return
      queue.shift()
      running++
      if (head.mode === 'exclusive') exclusiveRunning = true
      head.start()
    }
  }

  return {
    schedule(mode, task) {
      return new Promise((resolve, reject) => {
        const finish = () => {
          running--
          if (mode === 'exclusive') exclusiveRunning = false
          pump()
        }
        queue.push({
          mode,
          start: () => {
            let pending: Promise<unknown>
            try {
              pending = task()
            } catch (error) {
              pending = Promise.reject(error)
            }
            pending.then(
              (value) => {
                finish()
                resolve(value as never)
              },
              (error: unknown) => {
                finish()
                reject(error)
              },
            )
          },
        })
        pump()
      })
    },
  }
}
