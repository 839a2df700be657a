import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { descendantsOf } from '../../cli/process-tree.js'
import { fakeRunRequest } from '../__fixtures__/fake-run-request.js'
import { heldTool } from '../__fixtures__/held-tool.js'
import type { PtcRunOutcome } from '../ptc-port.js'
import { createPythonPtcRuntime, type PythonPtcRuntimeOptions } from './create-python-ptc-runtime.js'

const confined = hasSystemPart('bubblewrap', 'Python code mode concurrency caps')

function failureOf(outcome: PtcRunOutcome): { kind: string | undefined; message: string } {
  if (outcome.ok) return { kind: undefined, message: '' }
  return { kind: /^code run failed \(([a-z-]+)\)/.exec(outcome.error.message)?.[1], message: outcome.error.message }
}

async function withRuntime(
  options: PythonPtcRuntimeOptions,
  body: (runtime: ReturnType<typeof createPythonPtcRuntime>) => Promise<void>,
) {
  const runtime = createPythonPtcRuntime({ poolSize: 0, ...options })
  try {
    await body(runtime)
  } finally {
    await runtime.close()
  }
}

/** Counts programs between their `begin` and `finish` calls, and the most at once. */
function occupancy() {
  const state = { running: 0, most: 0 }
  const tools = {
    begin: () => {
      state.running += 1
      state.most = Math.max(state.most, state.running)
      return state.running
    },
    finish: () => {
      state.running -= 1
      return state.running
    },
  }
  return { state, tools }
}

/** Summed resident memory of every process this one started (the runners and their bubblewrap parents), in MB. */
function descendantsResidentMb(): number {
  let total = 0
  for (const entry of descendantsOf(process.pid)) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry.pid}/status`, 'utf8'))
      total += match === null ? 0 : Number(match[1]) / 1024
    } catch {
      // The process ended between the walk and the read.
    }
  }
  return total
}

describe.skipIf(!confined)('python code mode admits at most maxConcurrentRuns programs at once', () => {
  it('12 programs with a cap of 3: never more than 3 running, seen from inside, and all complete', async () => {
    await withRuntime({ maxConcurrentRuns: 3 }, async (runtime) => {
      const { state, tools } = occupancy()
      const code = `import asyncio
await tools.begin()
await asyncio.sleep(0.5)
await tools.finish()
return 'done'`
      const outcomes = await Promise.all(Array.from({ length: 12 }, () => runtime.run(fakeRunRequest(code, tools))))
      expect(outcomes.map((outcome) => outcome.ok && outcome.value)).toEqual(Array(12).fill('done'))
      expect(state).toEqual({ running: 0, most: 3 })
    })
  }, 60_000)

  it('a run whose deadline passes while queued fails as deadline and never starts', async () => {
    const holder = heldTool()
    await withRuntime({ maxConcurrentRuns: 1 }, async (runtime) => {
      const first = runtime.run(fakeRunRequest('return await tools.hold()', { hold: holder.tool }))
      await holder.entered
      const queued = fakeRunRequest(`await tools.mark()\nreturn 'ran'`, { mark: () => 1 }, { timeoutMs: 200 })
      const failure = failureOf(await runtime.run(queued))
      expect(failure.kind).toBe('deadline')
      expect(failure.message).toContain('waiting for a free sandbox; the program never started')
      expect(queued.calls).toEqual([])
      holder.open()
      expect(await first.then((outcome) => outcome.ok && outcome.value)).toBe('opened')
    }).finally(() => holder.open())
  }, 30_000)

  it('a run cancelled while queued fails as aborted, and past the queue bound a run fails at once as busy', async () => {
    const holder = heldTool()
    await withRuntime({ maxConcurrentRuns: 1, maxQueuedRuns: 1 }, async (runtime) => {
      const first = runtime.run(fakeRunRequest('return await tools.hold()', { hold: holder.tool }))
      await holder.entered
      const controller = new AbortController()
      const cancelled = runtime.run(fakeRunRequest(`return 'cancelled'`, {}, { signal: controller.signal }))
      const busy = failureOf(await runtime.run(fakeRunRequest(`return 'third'`)))
      expect(busy.kind).toBe('busy')
      expect(busy.message).toContain('retry later or run fewer programs at once')
      controller.abort()
      expect(failureOf(await cancelled).message).toBe(
        'code run failed (aborted): the run was cancelled while it waited to start',
      )
      holder.open()
      expect((await first).ok).toBe(true)
    }).finally(() => holder.open())
  }, 30_000)

  it('a run that throws, runs out of memory or is killed at its deadline gives its slot back', async () => {
    await withRuntime({ maxConcurrentRuns: 1, maxQueuedRuns: 0 }, async (runtime) => {
      const endings = [
        { code: `raise ValueError('boom')`, kind: 'runtime', timeoutMs: 20_000 },
        { code: `keep = []\nwhile True:\n    keep.append(b'x' * (1 << 24))`, kind: 'memory', timeoutMs: 20_000 },
        { code: 'while True:\n    pass', kind: 'deadline', timeoutMs: 500 },
      ]
      for (const { code, kind, timeoutMs } of endings) {
        expect(failureOf(await runtime.run(fakeRunRequest(code, {}, { timeoutMs }))).kind).toBe(kind)
        // maxQueuedRuns 0: were the slot still taken, this run would be refused as busy.
        const next = await runtime.run(fakeRunRequest(`return 'next'`))
        expect(next.ok && next.value).toBe('next')
      }
    })
  }, 60_000)

  it('12 memory-hungry programs under a cap of 2 keep the runners together to about 2 programs', async () => {
    const programMb = 80
    await withRuntime({ maxConcurrentRuns: 2 }, async (runtime) => {
      const { state, tools } = occupancy()
      let peakMb = 0
      const sampler = setInterval(() => {
        peakMb = Math.max(peakMb, descendantsResidentMb())
      }, 20)
      // Each program holds its bytes (written, so resident) until the host has seen it running.
      const code = `import asyncio
keep = b'x' * (${programMb} << 20)
await tools.begin()
await asyncio.sleep(0.3)
await tools.finish()
return len(keep)`
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, () => runtime.run(fakeRunRequest(code, tools, { timeoutMs: 120_000 }))),
      ).finally(() => clearInterval(sampler))
      console.log(`python capped at 2: runners peaked at ${peakMb.toFixed(0)} MB together`)
      expect(outcomes.every((outcome) => outcome.ok)).toBe(true)
      expect(state.most).toBe(2)
      // Each running program's bytes plus an interpreter's own memory; twelve at once would be past 1 GB.
      expect(peakMb).toBeLessThan(2 * (programMb + 48))
    })
  }, 180_000)
})
