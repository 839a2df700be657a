import { fakeRunRequest } from '@qilin-tools/code-mode/internal/__fixtures__/fake-run-request.js'
import { isInvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { describe, expect, it } from 'vitest'
import { createNodePtcRuntime } from './create-node-ptc-runtime.js'
import { disposeSandbox, IsolatePool, type PreparedSandbox, prepareSandbox } from './isolate-pool.js'

describe('IsolatePool', () => {
  it('refills after a run on the next turn, never on the path of the run, and never past its size', async () => {
    const pool = new IsolatePool({ size: 2, heapMegabytes: 16 })
    try {
      await pool.warm()
      expect(pool.prepared).toBe(2)
      const taken = await pool.acquire()
      expect(pool.prepared).toBe(1)
      pool.refillSoon()
      // Scheduled, not begun: the caller's result is handed back before an isolate is built.
      expect(pool.prepared).toBe(1)
      await pool.warm()
      expect(pool.prepared).toBe(2)
      pool.refillSoon()
      pool.refillSoon()
      await pool.warm()
      expect(pool.prepared).toBe(2)
      disposeSandbox(taken)
    } finally {
      await pool.close()
    }
  })

  it('never hands out a sandbox whose isolate died while it waited, and builds a fresh one instead', async () => {
    const built: PreparedSandbox[] = []
    const pool = new IsolatePool({
      size: 1,
      heapMegabytes: 16,
      prepare: async (heapMegabytes) => {
        const sandbox = await prepareSandbox(heapMegabytes)
        built.push(sandbox)
        return sandbox
      },
    })
    try {
      await pool.warm()
      const crashed = built[0]!
      crashed.isolate.dispose()
      const handed = await pool.acquire()
      expect(handed).not.toBe(crashed)
      expect(handed.isolate.isDisposed).toBe(false)
      expect(built).toHaveLength(2)
      disposeSandbox(handed)
    } finally {
      await pool.close()
    }
  })

  it('refuses a pool size that is not a whole number from 0 up, naming it', () => {
    for (const poolSize of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      let thrown: unknown
      try {
        createNodePtcRuntime({ poolSize })
      } catch (error) {
        thrown = error
      }
      expect(isInvalidArgumentError(thrown)).toBe(true)
      expect((thrown as Error).message).toBe(`poolSize must be a whole number of at least 0, got ${String(poolSize)}`)
    }
  })
})

describe('the Node runtime and its pool', () => {
  it('runs on a fresh isolate after one ran out of memory: a crashed isolate is never reused', async () => {
    const runtime = createNodePtcRuntime({ poolSize: 1, limits: { heapMegabytes: 16 } })
    try {
      const bomb = await runtime.run(
        fakeRunRequest(`const grow = []; while (true) grow.push('x'.repeat(1e5) + grow.length)`),
      )
      expect(bomb.ok).toBe(false)
      const after = await runtime.run(
        fakeRunRequest(`globalThis.seen = (globalThis.seen ?? 0) + 1; return globalThis.seen`),
      )
      expect(after.ok && after.value).toBe(1)
    } finally {
      await runtime.close()
    }
  })
})
