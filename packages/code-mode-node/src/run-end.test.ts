import { fakeRunRequest } from '@qilin-tools/code-mode/internal/__fixtures__/fake-run-request.js'
import { resolvePtcLimits } from '@qilin-tools/code-mode/internal/ptc-limits.js'
import { describe, expect, it } from 'vitest'
import { prepareSandbox } from './isolate-pool.js'
import { runInSandbox } from './run-in-sandbox.js'
import { stripTypeScript } from './strip-typescript.js'

const limits = resolvePtcLimits({})
const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

async function run(code: string) {
  const stripped = await stripTypeScript(code)
  if (!stripped.ok) throw new Error(stripped.failure.message)
  const sandbox = await prepareSandbox(limits.heapMegabytes)
  const result = await runInSandbox(sandbox, stripped.javascript, fakeRunRequest(code), { limits, timeoutMs: 5_000 })
  return { sandbox, result }
}

describe('the end of a run', () => {
  it('hands the result back first and disposes the isolate on the next turn', async () => {
    const { sandbox, result } = await run('return 1')
    expect(result).toMatchObject({ ok: true, value: 1 })
    await nextTurn()
    expect(sandbox.isolate.isDisposed).toBe(true)
  })

  it('stops a program that keeps spinning after it returned, without holding the host', async () => {
    // The spin starts several microtask hops after the return, once the end has gone to the host.
    const code = [
      'let hops = Promise.resolve()',
      'for (let i = 0; i < 20; i++) hops = hops.then(() => undefined)',
      'hops.then(() => { for (;;) {} })',
      'return 2',
    ].join('\n')
    const started = performance.now()
    const { sandbox, result } = await run(code)
    expect(result).toMatchObject({ ok: true, value: 2 })
    const ticked = performance.now()
    await nextTurn()
    const lag = performance.now() - ticked
    expect(sandbox.isolate.isDisposed).toBe(true)
    expect(lag).toBeLessThan(1_000)
    expect(performance.now() - started).toBeLessThan(4_000)
  })
})
