import { afterAll, describe, expect, it } from 'vitest'
import { fakeRunRequest } from '../__fixtures__/fake-run-request.js'
import type { PtcRunOutcome } from '../ptc-port.js'
import { createNodePtcRuntime } from './create-node-ptc-runtime.js'

const runtime = createNodePtcRuntime()
afterAll(() => runtime.close())

async function run(code: string): Promise<PtcRunOutcome> {
  return runtime.run(fakeRunRequest(code))
}

const value = (outcome: PtcRunOutcome): unknown => (outcome.ok ? outcome.value : outcome.error.message)

/** The host-health side (RSS, lag, exit) is in outside-heap-memory.test.ts; this is the surface a program sees. */
describe('the sandbox surface for memory outside the heap', () => {
  it('has no Intl, by name or by a computed one', async () => {
    expect(
      value(await run(`return [typeof Intl, typeof (globalThis as any)['Int' + 'l'], 'Intl' in globalThis]`)),
    ).toEqual(['undefined', 'undefined', false])
  })

  it('keeps the default-locale forms that programs use to format and sort', async () => {
    const code = `return [
      (1234.5).toLocaleString().length > 0, (12n).toLocaleString(), new Date(0).toLocaleString().length > 0,
      new Date(0).toLocaleDateString().length > 0, new Date(0).toLocaleTimeString().length > 0,
      ['b', 'a', 'c'].sort((x, y) => x.localeCompare(y)), [1, 2].toLocaleString().length > 0,
      'i'.toLocaleUpperCase('tr'), 'e\\u0301'.normalize('NFC').length,
    ]`
    expect(value(await run(code))).toEqual([true, '12', true, true, true, ['a', 'b', 'c'], true, 'İ', 1])
  })

  it.each([
    ['toLocaleString', `(1).toLocaleString('de-DE')`],
    ['toLocaleString', `(1).toLocaleString(undefined, { maximumFractionDigits: 2 })`],
    ['toLocaleString', `(1n).toLocaleString('de-DE')`],
    ['toLocaleString', `new Date().toLocaleString('de-DE')`],
    ['toLocaleDateString', `new Date().toLocaleDateString(undefined, { dateStyle: 'full' })`],
    ['toLocaleTimeString', `new Date().toLocaleTimeString('en-GB')`],
    ['localeCompare', `'a'.localeCompare('b', 'de')`],
    ['localeCompare', `'a'.localeCompare('b', undefined, { sensitivity: 'base' })`],
    ['toLocaleString', `[1].toLocaleString('de-DE')`],
    ['toLocaleString', `new Float64Array([1]).toLocaleString('de-DE')`],
  ])('refuses a locale or options: %s in %s', async (method, expression) => {
    expect(value(await run(`return ${expression}`))).toMatch(
      new RegExp(
        `^code run failed \\(runtime\\): program error > TypeError: ${method} takes no locale or options in code mode`,
      ),
    )
  })

  it('narrows the methods without making constructors of them or changing their shape', async () => {
    const code = `const method = Number.prototype.toLocaleString as any
      let constructed = 'no'
      try { new method(); constructed = 'yes' } catch (error) { constructed = String(error) }
      return [method.name, method.length, String.prototype.localeCompare.length, constructed,
        Object.getOwnPropertyDescriptor(Date.prototype, 'toLocaleString')?.enumerable]`
    expect(value(await run(code))).toEqual(['toLocaleString', 0, 1, 'TypeError: method is not a constructor', false])
  })

  it('cannot be talked into passing a locale by what arrays inherit', async () => {
    const code = `const date = new Date(0)
      const before = [(1234.5).toLocaleString(), date.toLocaleString(), 'a'.localeCompare('b')]
      ;(Array.prototype as any)[0] = 'de-DE'
      ;(Array.prototype as any)[1] = { timeStyle: 'full' }
      ;(Array.prototype as any).slice = () => ['de-DE', { timeStyle: 'full' }]
      const after = [(1234.5).toLocaleString(), date.toLocaleString(), 'a'.localeCompare('b')]
      return [JSON.stringify(before) === JSON.stringify(after), after[2]]`
    expect(value(await run(code))).toEqual([true, -1])
  })
})
