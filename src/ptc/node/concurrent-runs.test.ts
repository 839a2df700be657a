import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { childHostReport } from '../../../test/support/child-host.js'
import { fakeRunRequest } from '../__fixtures__/fake-run-request.js'
import { heldTool } from '../__fixtures__/held-tool.js'
import type { PtcRunOutcome } from '../ptc-port.js'
import type { ConcurrentRunsReport } from './__fixtures__/concurrent-runs-host.js'
import { createNodePtcRuntime } from './create-node-ptc-runtime.js'

function failureOf(outcome: PtcRunOutcome): { kind: string | undefined; message: string } {
  if (outcome.ok) return { kind: undefined, message: '' }
  return { kind: /^code run failed \(([a-z-]+)\)/.exec(outcome.error.message)?.[1], message: outcome.error.message }
}

describe('node code mode admits at most maxConcurrentRuns programs at once', () => {
  it('12 programs with a cap of 3: never more than 3 running, seen from inside, and all complete', async () => {
    const runtime = createNodePtcRuntime({ maxConcurrentRuns: 3, poolSize: 0 })
    try {
      let running = 0
      let most = 0
      const tools = {
        begin: () => {
          running += 1
          most = Math.max(most, running)
          return running
        },
        finish: () => {
          running -= 1
          return running
        },
      }
      const code = `await tools.begin({})
        await new Promise((resolve) => setTimeout(resolve, 30))
        await tools.finish({})
        return 'done'`
      const outcomes = await Promise.all(Array.from({ length: 12 }, () => runtime.run(fakeRunRequest(code, tools))))
      expect(outcomes.map((outcome) => outcome.ok && outcome.value)).toEqual(Array(12).fill('done'))
      expect(most).toBe(3)
      expect(running).toBe(0)
    } finally {
      await runtime.close()
    }
  })

  it('a run whose deadline passes while queued fails as deadline and never starts', async () => {
    const runtime = createNodePtcRuntime({ maxConcurrentRuns: 1, poolSize: 0 })
    const holder = heldTool()
    try {
      const first = runtime.run(fakeRunRequest('return await tools.hold({})', { hold: holder.tool }))
      await holder.entered
      const queued = fakeRunRequest(`await tools.mark({})\nreturn 'ran'`, { mark: () => 1 }, { timeoutMs: 200 })
      const failure = failureOf(await runtime.run(queued))
      expect(failure.kind).toBe('deadline')
      expect(failure.message).toContain('waiting for a free sandbox; the program never started')
      expect(queued.calls).toEqual([])
      holder.open()
      expect(await first.then((outcome) => outcome.ok && outcome.value)).toBe('opened')
    } finally {
      holder.open()
      await runtime.close()
    }
  })

  it('the time a run waits for its turn counts against its deadline', async () => {
    const runtime = createNodePtcRuntime({ maxConcurrentRuns: 1, poolSize: 0 })
    const holder = heldTool()
    try {
      const first = runtime.run(fakeRunRequest('return await tools.hold({})', { hold: holder.tool }))
      await holder.entered
      const queued = runtime.run(fakeRunRequest('while (true) {}', {}, { timeoutMs: 1_000 }))
      await new Promise((resolve) => setTimeout(resolve, 400))
      holder.open()
      await first
      const failure = failureOf(await queued)
      expect(failure.kind).toBe('deadline')
      const left = Number(/ran past its (\d+) ms deadline/.exec(failure.message)?.[1])
      expect(left).toBeGreaterThan(0)
      expect(left).toBeLessThanOrEqual(600)
    } finally {
      holder.open()
      await runtime.close()
    }
  })

  it('a run cancelled while queued fails as aborted and never starts', async () => {
    const runtime = createNodePtcRuntime({ maxConcurrentRuns: 1, poolSize: 0 })
    const holder = heldTool()
    try {
      const first = runtime.run(fakeRunRequest('return await tools.hold({})', { hold: holder.tool }))
      await holder.entered
      const controller = new AbortController()
      const queued = fakeRunRequest('await tools.mark({})', { mark: () => 1 }, { signal: controller.signal })
      const pending = runtime.run(queued)
      setTimeout(() => controller.abort(), 50)
      expect(failureOf(await pending)).toEqual({
        kind: 'aborted',
        message: 'code run failed (aborted): the run was cancelled while it waited to start',
      })
      expect(queued.calls).toEqual([])
      holder.open()
      await first
    } finally {
      holder.open()
      await runtime.close()
    }
  })

  it('past the queue bound a run fails at once as busy, telling the model to retry later', async () => {
    const runtime = createNodePtcRuntime({ maxConcurrentRuns: 1, maxQueuedRuns: 1, poolSize: 0 })
    const holder = heldTool()
    try {
      const first = runtime.run(fakeRunRequest('return await tools.hold({})', { hold: holder.tool }))
      await holder.entered
      const second = runtime.run(fakeRunRequest(`return 'second'`))
      const refusedAt = performance.now()
      const third = fakeRunRequest('await tools.mark({})', { mark: () => 1 })
      expect(failureOf(await runtime.run(third))).toEqual({
        kind: 'busy',
        message:
          'code run failed (busy): 1 programs are running and 1 are waiting, the most this host allows (1 running, 1 waiting); the program did not start: retry later or run fewer programs at once',
      })
      expect(performance.now() - refusedAt).toBeLessThan(1_000)
      expect(third.calls).toEqual([])
      holder.open()
      expect((await first).ok).toBe(true)
      expect(await second.then((outcome) => outcome.ok && outcome.value)).toBe('second')
    } finally {
      holder.open()
      await runtime.close()
    }
  })

  it('a run that throws, runs out of heap or is killed at its deadline gives its slot back', async () => {
    const runtime = createNodePtcRuntime({ maxConcurrentRuns: 1, maxQueuedRuns: 0, poolSize: 0 })
    try {
      const endings = [
        { code: `throw new Error('boom')`, kind: 'runtime', timeoutMs: 10_000 },
        {
          code: `const keep = []\nwhile (true) keep.push(new Array(131072).fill(keep.length + 0.5))`,
          kind: 'memory',
          timeoutMs: 10_000,
        },
        { code: 'while (true) {}', kind: 'deadline', timeoutMs: 300 },
      ]
      for (const { code, kind, timeoutMs } of endings) {
        expect(failureOf(await runtime.run(fakeRunRequest(code, {}, { timeoutMs }))).kind).toBe(kind)
        // maxQueuedRuns 0: were the slot still taken, this run would be refused as busy.
        expect(await runtime.run(fakeRunRequest(`return 'next'`)).then((outcome) => outcome.ok && outcome.value)).toBe(
          'next',
        )
      }
    } finally {
      await runtime.close()
    }
  })
})

const host = fileURLToPath(new URL('./__fixtures__/concurrent-runs-host.ts', import.meta.url))

/** Runs the host in its own process; its report says how far its RSS rose over its baseline. */
function runHost(maxConcurrentRuns: number, heapMegabytes: number): Promise<ConcurrentRunsReport> {
  return childHostReport<ConcurrentRunsReport>(
    'concurrent runs',
    host,
    [String(maxConcurrentRuns), String(heapMegabytes)],
    {
      nodeFlags: ['--no-node-snapshot'],
      timeoutMs: 90_000,
    },
  )
}

describe('node code mode keeps host memory bounded by the cap', () => {
  it('12 memory-hungry programs under a cap of 2 raise RSS by at most about 2 heaps', async () => {
    const heapMegabytes = 64
    const report = await runHost(2, heapMegabytes)
    console.log(`capped at 2: RSS ${report.baselineMb} -> peak ${report.peakMb} MB, ${report.completed} completed`)
    expect(report.completed).toBe(12)
    expect(report.mostRunning).toBe(2)
    // Each running isolate may hold its whole heap plus its own overhead; twelve at once would be six times this.
    expect(report.peakMb - report.baselineMb).toBeLessThan(2 * heapMegabytes * 1.5 + 64)
  }, 120_000)
})
