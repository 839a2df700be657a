import { fakeRunRequest } from '@qilin-tools/code-mode/internal/__fixtures__/fake-run-request.js'
import { heldTool } from '@qilin-tools/code-mode/internal/__fixtures__/held-tool.js'
import type { PtcRunOutcome } from '@qilin-tools/code-mode/internal/ptc-port.js'
import { afterAll, describe, expect, it } from 'vitest'
import { createNodePtcRuntime } from './create-node-ptc-runtime.js'
import { HostOutbox } from './host-outbox.js'

const runtime = createNodePtcRuntime({ poolSize: 1, limits: { maxSubCalls: 5_000 } })
afterAll(() => runtime.close())

function resultOf(outcome: PtcRunOutcome): unknown {
  return outcome.ok ? outcome.value : outcome.error.message
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

describe('HostOutbox', () => {
  it('answers an exchange as soon as no call is running, with every message ready, in order', async () => {
    let running = 2
    const pushed: string[] = []
    const outbox = new HostOutbox(
      (text) => pushed.push(text),
      () => running === 0,
    )
    const answer = outbox.answer()
    running = 1
    outbox.add('{"id":1}')
    running = 0
    outbox.add('{"id":2}')
    expect(await answer).toBe('[{"id":1},{"id":2}]')
    expect(pushed).toEqual([])
  })

  it('answers with nothing on the next turn when a call is still running, and pushes its result later', async () => {
    const pushed: string[] = []
    let running = 1
    const outbox = new HostOutbox(
      (text) => pushed.push(text),
      () => running === 0,
    )
    expect(await outbox.answer()).toBe('')
    running = 0
    outbox.add('{"id":1}')
    await nextTurn()
    expect(pushed).toEqual(['[{"id":1}]'])
  })

  it('after close, a waiting exchange gets nothing and nothing more is pushed', async () => {
    const pushed: string[] = []
    const outbox = new HostOutbox(
      (text) => pushed.push(text),
      () => false,
    )
    const answer = outbox.answer()
    outbox.close()
    expect(await answer).toBe('')
    outbox.add('{"id":1}')
    expect(await outbox.answer()).toBe('')
    await nextTurn()
    expect(pushed).toEqual([])
  })
})

describe('the batched bridge', () => {
  it('settles each of 2,000 calls under Promise.all with its own result', async () => {
    const outcome = await runtime.run(
      fakeRunRequest(
        `const values = await Promise.all(Array.from({ length: 2000 }, (_, i) => tools.double({ i })))
         return values.every((value, i) => value === 2 * i) ? values.length : values.slice(0, 5)`,
        { double: (args) => 2 * (args as { i: number }).i },
      ),
    )
    expect(resultOf(outcome)).toBe(2000)
  })

  it('splits a burst past the one-message bound into batches the host accepts, and answers every call', async () => {
    const small = createNodePtcRuntime({ poolSize: 0, limits: { maxArgumentBytes: 20_000, maxSubCalls: 500 } })
    try {
      // The bound is 6 × the largest of the argument, result and output limits (100 KB) plus 4 KB: about 604 KB.
      const outcome = await small.run(
        fakeRunRequest(
          `const text = 'x'.repeat(15000)
           const sizes = await Promise.all(Array.from({ length: 120 }, () => tools.size({ text })))
           return sizes.reduce((sum, size) => sum + size, 0)`,
          { size: (args) => (args as { text: string }).text.length },
        ),
      )
      expect(resultOf(outcome)).toBe(120 * 15_000)
    } finally {
      await small.close()
    }
  })

  it('a slow tool does not hold the isolate: a timer fires and prints while the call is still running', async () => {
    const holder = heldTool()
    const run = runtime.run(
      fakeRunRequest(
        `const slow = tools.hold()
         await new Promise((resolve) => setTimeout(resolve, 20))
         console.log('timer fired first')
         await tools.open()
         return await slow`,
        {
          hold: holder.tool,
          open: () => {
            holder.open()
            return 'opening'
          },
        },
      ),
    )
    const outcome = await run
    expect(outcome.ok && outcome.content).toEqual([{ type: 'text', text: 'timer fired first\nopened' }])
  })

  it('a deadline while a call is held ends the run at once, and the next run is healthy', async () => {
    const holder = heldTool()
    const started = performance.now()
    const outcome = await runtime.run({
      ...fakeRunRequest('return await tools.hold()', { hold: holder.tool }),
      timeoutMs: 150,
    })
    expect(resultOf(outcome)).toMatch(/deadline/)
    expect(performance.now() - started).toBeLessThan(3_000)
    holder.open()
    expect(resultOf(await runtime.run(fakeRunRequest('return 7')))).toBe(7)
  })

  it('a program that poisons Promise then and species still gets its results (the outbox never uses them)', async () => {
    const outcome = await runtime.run(
      fakeRunRequest(
        `Promise.prototype.then = function () { throw new Error('poisoned then') }
         Object.defineProperty(Promise, Symbol.species, { get() { throw new Error('poisoned species') } })
         const first = await tools.echo({ n: 1 })
         const second = await tools.echo({ n: 2 })
         return [first, second]`,
        { echo: (args) => args },
      ),
    )
    expect(resultOf(outcome)).toEqual([{ n: 1 }, { n: 2 }])
  })
})
