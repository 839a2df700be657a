import { isInvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { describe, expect, it } from 'vitest'
import { type Admission, RunAdmission } from './run-admission.js'

const never = new AbortController().signal
const later = () => performance.now() + 60_000

function granted(admission: Admission): () => void {
  if (!admission.ok) throw new Error(`refused: ${admission.failure.message}`)
  return admission.release
}

describe('RunAdmission', () => {
  it('admits up to the run cap, then queues first in, first out', async () => {
    const gate = new RunAdmission({ maxConcurrentRuns: 2, maxSandboxMemoryBytes: 100, maxQueuedRuns: 5 }, 10)
    const first = granted(await gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never }))
    granted(await gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never }))
    const order: string[] = []
    const third = gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never }).then(() => order.push('third'))
    void gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never }).then(() => order.push('fourth'))
    expect([gate.running, gate.queued]).toEqual([2, 2])
    first()
    await third
    expect(order).toEqual(['third'])
    expect([gate.running, gate.queued]).toEqual([2, 1])
  })

  it('holds a run back while its memory would pass the total, even with a free slot', async () => {
    const gate = new RunAdmission({ maxConcurrentRuns: 4, maxSandboxMemoryBytes: 25, maxQueuedRuns: 5 }, 10)
    const at = await gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never })
    expect(at.ok && at.waitedMs).toBe(0)
    const first = granted(at)
    granted(await gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never }))
    const waiting = gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never })
    expect([gate.running, gate.queued]).toEqual([2, 1])
    await new Promise((resolve) => setTimeout(resolve, 30))
    first()
    const admitted = await waiting
    expect(admitted.ok && admitted.waitedMs).toBeGreaterThanOrEqual(25)
    expect([gate.running, gate.queued]).toEqual([2, 0])
  })

  it('refuses at once past the queue bound, saying to retry later or run fewer at once', async () => {
    const gate = new RunAdmission({ maxConcurrentRuns: 1, maxSandboxMemoryBytes: 10, maxQueuedRuns: 1 }, 10)
    granted(await gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never }))
    void gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never })
    const refused = await gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never })
    expect(refused).toEqual({
      ok: false,
      failure: {
        kind: 'busy',
        message:
          '1 programs are running and 1 are waiting, the most this host allows (1 running, 1 waiting); the program did not start: retry later or run fewer programs at once',
      },
    })
  })

  it('a queued run leaves at its deadline, and the one behind it moves up', async () => {
    const gate = new RunAdmission({ maxConcurrentRuns: 1, maxSandboxMemoryBytes: 10, maxQueuedRuns: 2 }, 10)
    const release = granted(await gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never }))
    const soon = await gate.admit({ memoryBytes: 10, deadlineAt: performance.now() + 20, signal: never })
    expect(soon.ok).toBe(false)
    expect(soon.ok ? '' : soon.failure.kind).toBe('deadline')
    expect(soon.ok ? '' : soon.failure.message).toMatch(/waiting for a free sandbox; the program never started/)
    expect(gate.queued).toBe(0)
    const behind = gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never })
    release()
    granted(await behind)
  })

  it('a queued run leaves when its signal aborts, and an aborted signal never queues', async () => {
    const gate = new RunAdmission({ maxConcurrentRuns: 1, maxSandboxMemoryBytes: 10, maxQueuedRuns: 2 }, 10)
    granted(await gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never }))
    const controller = new AbortController()
    const waiting = gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: controller.signal })
    controller.abort()
    const outcome = await waiting
    expect(outcome.ok ? '' : outcome.failure).toEqual({
      kind: 'aborted',
      message: 'the run was cancelled while it waited to start',
    })
    expect(gate.queued).toBe(0)
    const again = await gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: controller.signal })
    expect(again.ok ? '' : again.failure.kind).toBe('aborted')
    expect(gate.queued).toBe(0)
  })

  it('a release counts once however often it is called', async () => {
    const gate = new RunAdmission({ maxConcurrentRuns: 2, maxSandboxMemoryBytes: 20, maxQueuedRuns: 2 }, 10)
    const release = granted(await gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never }))
    granted(await gate.admit({ memoryBytes: 10, deadlineAt: later(), signal: never }))
    release()
    release()
    expect(gate.running).toBe(1)
  })

  it('refuses limits no run could ever pass', () => {
    const refuse = (limits: ConstructorParameters<typeof RunAdmission>[0], largest = 10) => {
      try {
        new RunAdmission(limits, largest)
      } catch (error) {
        return isInvalidArgumentError(error) ? error.message : 'not branded'
      }
      return 'accepted'
    }
    expect(refuse({ maxConcurrentRuns: 0, maxSandboxMemoryBytes: 10, maxQueuedRuns: 0 })).toBe(
      'maxConcurrentRuns must be a whole number of at least 1, got 0',
    )
    expect(refuse({ maxConcurrentRuns: 1, maxSandboxMemoryBytes: 10, maxQueuedRuns: 1.5 })).toBe(
      'maxQueuedRuns must be a whole number of at least 0, got 1.5',
    )
    expect(refuse({ maxConcurrentRuns: 1, maxSandboxMemoryBytes: 5, maxQueuedRuns: 0 })).toBe(
      "maxSandboxMemoryBytes (5) is below one run's memory limit (10): no run could ever start",
    )
  })
})
