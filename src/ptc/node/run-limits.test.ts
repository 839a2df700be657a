import { afterAll, describe, expect, it } from 'vitest'
import { fakeRunRequest } from '../__fixtures__/fake-run-request.js'
import type { PtcRunOutcome } from '../ptc-port.js'
import { createNodePtcRuntime } from './create-node-ptc-runtime.js'

const runtime = createNodePtcRuntime({
  limits: { maxOutputBytes: 2_000, maxResultBytes: 2_000, maxSubCalls: 5, maxInputBytes: 5_000, maxSourceBytes: 5_000 },
})
afterAll(() => runtime.close())

function failureKind(outcome: PtcRunOutcome): string | undefined {
  return outcome.ok ? undefined : /^code run failed \(([a-z-]+)\)/.exec(outcome.error.message)?.[1]
}

describe('run limits, each its own failure kind', () => {
  it('source-limit: refuses a program longer than the cap before running it', async () => {
    const request = fakeRunRequest(`// ${'x'.repeat(6_000)}\nawait tools.echo({})`, { echo: () => 1 })
    expect(failureKind(await runtime.run(request))).toBe('source-limit')
    expect(request.calls).toEqual([])
  })

  it('output-limit: stops a program that prints more than the cap and keeps what came before', async () => {
    const outcome = await runtime.run(
      fakeRunRequest(`for (let i = 0; i < 1000; i++) console.log('line ' + i)\nreturn 'end'`),
    )
    expect(failureKind(outcome)).toBe('output-limit')
    expect(outcome.ok ? '' : outcome.error.message).toContain('Captured output:\nline 0\nline 1\n')
  })

  it('output-limit: a program that swallows the inside error still stops printing', async () => {
    const code = `for (let i = 0; i < 1000; i++) { try { console.log('y'.repeat(100)) } catch {} }\nreturn 'after'`
    expect(failureKind(await runtime.run(fakeRunRequest(code)))).toBe('output-limit')
  })

  it('result-limit: refuses a returned value larger than the cap', async () => {
    expect(failureKind(await runtime.run(fakeRunRequest(`return 'r'.repeat(3_000)`)))).toBe('result-limit')
  })

  it('sub-call-limit: stops at the call past the cap, without making it', async () => {
    const request = fakeRunRequest(`for (let i = 0; i < 10; i++) await tools.echo({ i })`, { echo: () => 1 })
    expect(failureKind(await runtime.run(request))).toBe('sub-call-limit')
    expect(request.calls).toHaveLength(5)
  })

  it('input-budget: stops when tool results entering the program pass the budget', async () => {
    const request = fakeRunRequest(`for (let i = 0; i < 5; i++) await tools.big({})\nreturn 'unreachable'`, {
      big: () => 'b'.repeat(2_000),
    })
    expect(failureKind(await runtime.run(request))).toBe('input-budget')
  })

  it('refuses oversized tool arguments inside the program, before they cross', async () => {
    const small = createNodePtcRuntime({ poolSize: 0, limits: { maxArgumentBytes: 100 } })
    try {
      const request = fakeRunRequest(
        `try { await tools.echo({ text: 'a'.repeat(200) }) } catch (error) { return String(error) }`,
        { echo: (args) => args },
      )
      const outcome = await small.run(request)
      expect(outcome.ok && outcome.value).toBe('RangeError: tool arguments are larger than 100 bytes')
      expect(request.calls).toEqual([])
    } finally {
      await small.close()
    }
  })

  it('caps pending timers so a program cannot flood the host with them', async () => {
    const code = `let refused = ''
      try { for (let i = 0; i < 5000; i++) setTimeout(() => {}, 60_000) } catch (error) { refused = String(error) }
      return refused`
    expect(await runtime.run(fakeRunRequest(code)).then((outcome) => outcome.ok && outcome.value)).toBe(
      'RangeError: more than 1000 pending timers',
    )
  })

  it('lets a program set and clear more timers than the cap over its life', async () => {
    const code = `for (let i = 0; i < 3000; i++) clearTimeout(setTimeout(() => {}, 60_000))
      await new Promise((resolve) => setTimeout(resolve, 1))
      return 'ok'`
    expect(await runtime.run(fakeRunRequest(code)).then((outcome) => outcome.ok && outcome.value)).toBe('ok')
  })

  it('deadline: kills a busy loop', async () => {
    const outcome = await runtime.run({ ...fakeRunRequest('while (true) {}'), timeoutMs: 100 })
    expect(failureKind(outcome)).toBe('deadline')
  })

  it('deadline: kills a program waiting on a tool call that never settles', async () => {
    const request = {
      ...fakeRunRequest(`console.log('asking')\nawait tools.wait({})`, { wait: () => new Promise(() => {}) }),
      timeoutMs: 100,
    }
    const outcome = await runtime.run(request)
    expect(failureKind(outcome)).toBe('deadline')
    expect(outcome.ok ? '' : outcome.error.message).toContain('Captured output:\nasking')
  })

  it('aborted: the caller signal kills the sandbox mid-call', async () => {
    const controller = new AbortController()
    const request = fakeRunRequest(
      `await tools.wait({})`,
      {
        wait: () => {
          controller.abort()
          return new Promise(() => {})
        },
      },
      { signal: controller.signal },
    )
    expect(failureKind(await runtime.run(request))).toBe('aborted')
  })

  it('memory: a program that allocates past the heap limit fails as memory, and the host carries on', async () => {
    const small = createNodePtcRuntime({ poolSize: 0, limits: { heapMegabytes: 16 } })
    try {
      const code = `const keep: string[] = []\nwhile (true) keep.push('m'.repeat(1024) + keep.length)`
      const outcome = await small.run({ ...fakeRunRequest(code), timeoutMs: 60_000 })
      expect(failureKind(outcome)).toBe('memory')
      expect((await small.run(fakeRunRequest('return 1 + 1'))).ok).toBe(true)
    } finally {
      await small.close()
    }
  })

  it('caps the requested deadline at the maximum and applies the default when none is given', async () => {
    const capped = createNodePtcRuntime({ poolSize: 0, limits: { defaultTimeoutMs: 50, maxTimeoutMs: 80 } })
    try {
      const outcome = await capped.run({ ...fakeRunRequest('while (true) {}'), timeoutMs: 600_000 })
      expect(outcome.ok ? '' : outcome.error.message).toContain('80 ms deadline')
      const fallback = await capped.run({ ...fakeRunRequest('while (true) {}'), timeoutMs: undefined })
      expect(fallback.ok ? '' : fallback.error.message).toContain('50 ms deadline')
    } finally {
      await capped.close()
    }
  })

  it('stays healthy after 100 kills in a row', async () => {
    const killer = createNodePtcRuntime({ poolSize: 2 })
    try {
      for (let kill = 0; kill < 100; kill++) {
        const outcome = await killer.run({ ...fakeRunRequest('while (true) {}'), timeoutMs: 5 })
        expect(failureKind(outcome)).toBe('deadline')
      }
      const after = await killer.run(
        fakeRunRequest(`return await tools.echo({ ok: 'still' })`, { echo: (args) => args }),
      )
      expect(after.ok && after.value).toEqual({ ok: 'still' })
    } finally {
      await killer.close()
    }
  })
})
