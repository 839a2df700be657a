import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import { worstEventLoopLag } from '../../json-schema/__fixtures__/event-loop-lag.js'
import { fakeRunRequest } from '../__fixtures__/fake-run-request.js'
import { argumentsTooLarge } from '../arguments-too-large.js'
import { createNodePtcRuntime } from '../node/create-node-ptc-runtime.js'
import { defaultPtcLimits } from '../ptc-limits.js'
import type { PtcRunOutcome } from '../ptc-port.js'
import { createPythonPtcRuntime, type PythonPtcRuntime } from './create-python-ptc-runtime.js'

const confined = hasSystemPart('bubblewrap', 'the Python argument limit')
const limit = defaultPtcLimits.maxArgumentBytes
let runtime: PythonPtcRuntime
beforeAll(() => {
  if (confined) runtime = createPythonPtcRuntime({ poolSize: 1 })
})
afterAll(() => runtime?.close())

/** Each attempt's outcome as the program saw it: the length the tool measured, or the refusal. */
const attempts = (texts: string) => `results = []
for text in ${texts}:
    try:
        results.append(await tools.measure(text=text))
    except ToolCallError as error:
        results.append([error.code, error.message])
return results`

function measuring() {
  return { measure: (args: unknown) => (args as { text: string }).text.length }
}

function answerOf(outcome: PtcRunOutcome): unknown {
  return outcome.ok ? outcome.value : outcome.error.message
}

const refusal = ['INVALID_ARGUMENTS', argumentsTooLarge(limit)]

describe.skipIf(!confined)('a Python sub-call over the argument limit', () => {
  it('is refused (30 MB) without reaching the tool or stalling the host, and the next call works', async () => {
    const request = fakeRunRequest(attempts(`['x' * (30 << 20), 'ok']`), measuring(), { timeoutMs: 60_000 })
    let outcome: PtcRunOutcome | undefined
    const lag = await worstEventLoopLag(async () => {
      outcome = await runtime.run(request)
    })
    expect(answerOf(outcome!)).toEqual([refusal, 2])
    expect(request.calls.map((call) => call.args)).toEqual([{ text: 'ok' }])
    expect(lag).toBeLessThan(250)
    const next = await runtime.run(fakeRunRequest(attempts(`['again']`), measuring()))
    expect(answerOf(next)).toEqual([5])
  }, 90_000)

  it('counts UTF-8 bytes of the JSON text, as the TypeScript runtime does, to the byte', async () => {
    // {"text":"…"} adds 11 bytes to the string; é is two bytes, so the last two pass the line's length check.
    const texts = `['x' * (${limit} - 11), 'x' * (${limit} - 10), '\\u00e9' * (${limit} // 2 - 6) + 'x', '\\u00e9' * (${limit} // 2 - 5)]`
    const request = fakeRunRequest(attempts(texts), measuring(), { timeoutMs: 60_000 })
    expect(answerOf(await runtime.run(request))).toEqual([limit - 11, refusal, limit / 2 - 5, refusal])
    expect(request.calls).toHaveLength(2)
  }, 90_000)

  it('is worded as the TypeScript runtime words it', async () => {
    const typescript = createNodePtcRuntime({ poolSize: 0, limits: { maxArgumentBytes: 100 } })
    const python = createPythonPtcRuntime({ poolSize: 0, limits: { maxArgumentBytes: 100 } })
    try {
      const inIsolate = await typescript.run(
        fakeRunRequest(
          `try { await tools.measure({ text: 'x'.repeat(200) }) } catch (error) { return error.message }`,
          measuring(),
        ),
      )
      const onRunner = await python.run(fakeRunRequest(attempts(`['x' * 200]`), measuring()))
      expect(answerOf(inIsolate)).toBe(argumentsTooLarge(100))
      expect(answerOf(onRunner)).toEqual([['INVALID_ARGUMENTS', argumentsTooLarge(100)]])
    } finally {
      await Promise.all([typescript.close(), python.close()])
    }
  }, 30_000)
})
