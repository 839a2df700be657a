import { afterAll, describe, expect, it } from 'vitest'
import { fakeRunRequest } from '../__fixtures__/fake-run-request.js'
import type { PtcRunOutcome } from '../ptc-port.js'
import { createNodePtcRuntime } from './create-node-ptc-runtime.js'

const runtime = createNodePtcRuntime()
afterAll(() => runtime.close())

/**
 * Each probe returns what it could reach. `reach(x)` reports 'ESCAPED' when `x` looks like anything
 * from the host (a process, a require, a host global); every probe must report something else.
 */
const reach = `
const hostLike = (value: any): boolean => {
  try {
    return value !== undefined && value !== null && (typeof value.versions === 'object' || typeof value.require === 'function' || typeof value.process === 'object' || typeof value.mainModule === 'object' || typeof value.exit === 'function' || typeof value.binding === 'function')
  } catch { return false }
}
const attempt = (label: string, get: () => unknown): string => {
  try { const found = get(); return hostLike(found) ? 'ESCAPED via ' + label : 'blocked' } catch { return 'blocked' }
}
`

const tools = {
  echo: (args: unknown) => args as never,
  fail: () => {
    throw new Error('tool failure')
  },
  poisoned: () => ({ __proto__: { polluted: true }, constructor: { name: 'Function' }, toString: 'x' }) as never,
  hidden: () => 'should never run',
}

async function probe(code: string, visible: readonly string[] = ['echo', 'fail', 'poisoned']): Promise<PtcRunOutcome> {
  const request = fakeRunRequest(`${reach}\n${code}`, tools)
  return runtime.run({ ...request, toolNames: visible })
}

function returned(outcome: PtcRunOutcome): unknown {
  return outcome.ok ? outcome.value : outcome.error.message
}

const constructorChains: readonly [string, string][] = [
  ['globalThis', `return attempt('globalThis', () => globalThis.constructor.constructor('return process')())`],
  ['Function', `return attempt('Function', () => Function('return process')())`],
  ['AsyncFunction', `return attempt('AsyncFunction', () => (async () => {}).constructor('return process')())`],
  [
    'GeneratorFunction',
    `return attempt('Generator', () => (function* () {}).constructor('return process')().next().value)`,
  ],
  ['a tools binding', `return attempt('tools', () => tools.echo.constructor.constructor('return process')())`],
  [
    'the tools object',
    `return attempt('tools object', () => (tools as any).constructor?.constructor('return process')())`,
  ],
  ['console', `return attempt('console', () => (console.log as any).constructor('return process')())`],
  ['setTimeout', `return attempt('setTimeout', () => (setTimeout as any).constructor('return process')())`],
  ['ToolCallError', `return attempt('ToolCallError', () => (ToolCallError as any).constructor('return process')())`],
  [
    'an error thrown by a tool',
    `try { await tools.fail({}) } catch (error: any) { return attempt('tool error', () => error.constructor.constructor('return process')()) }`,
  ],
  [
    'a value returned by a tool',
    `const value: any = await tools.echo({ a: [1] }); return attempt('tool value', () => value.a.constructor.constructor('return process')())`,
  ],
  [
    'a promise returned by a binding',
    `const pending: any = tools.echo({}); await pending; return attempt('promise', () => pending.then.constructor('return process')())`,
  ],
]

describe('sandbox escapes (every probe must be blocked)', () => {
  it('the probe detector itself recognises a host-like value (control)', async () => {
    const code = `return attempt('control', () => ({ versions: { node: '20' } }))`
    expect(returned(await probe(code))).toBe('ESCAPED via control')
  })

  it.each(constructorChains)('constructor chain from %s', async (_label, code) => {
    expect(returned(await probe(code))).toBe('blocked')
  })

  it.each([
    ['require', `return attempt('require', () => (globalThis as any).require('fs'))`],
    ['process', `return attempt('process', () => (globalThis as any).process)`],
    ['module', `return attempt('module', () => (globalThis as any).module)`],
    [
      'Buffer and host globals',
      `return typeof (globalThis as any).Buffer + typeof (globalThis as any).global + typeof (globalThis as any).queueMicrotask`,
    ],
  ])('no %s inside', async (_label, code) => {
    expect(returned(await probe(code))).toMatch(/^(blocked|undefinedundefined(undefined|function))$/)
  })

  it('dynamic import rejects', async () => {
    const code = `try { const fs: any = await import('node:fs'); return hostLike(fs) ? 'ESCAPED' : 'blocked' } catch { return 'blocked' }`
    expect(returned(await probe(code))).toBe('blocked')
  })

  it('exposes no bridge, isolated-vm handle or host function among the globals', async () => {
    const code = `return Object.getOwnPropertyNames(globalThis).filter((name) => !/^[A-Z]/.test(name)).sort()`
    expect(returned(await probe(code))).toEqual([
      'clearTimeout',
      'console',
      'decodeURI',
      'decodeURIComponent',
      'encodeURI',
      'encodeURIComponent',
      'escape',
      'eval',
      'globalThis',
      'isFinite',
      'isNaN',
      'parseFloat',
      'parseInt',
      'setTimeout',
      'tools',
      'undefined',
      'unescape',
    ])
  })

  it('Error.prepareStackTrace sees only sandbox frames', async () => {
    const code = `
      ;(Error as any).prepareStackTrace = (_error: unknown, frames: any[]) => frames.map((frame) => {
        try { return [frame.getThis(), frame.getFunction()] } catch { return [] }
      })
      const captured: any[] = (new Error('probe') as any).stack
      let escaped = false
      for (const [self, fn] of captured) {
        if (hostLike(self)) escaped = true
        try { if (hostLike(fn?.constructor?.('return process')())) escaped = true } catch {}
      }
      try { await tools.fail({}) } catch (error: any) { for (const [self] of error.stack ?? []) if (hostLike(self)) escaped = true }
      return escaped ? 'ESCAPED' : 'blocked'`
    expect(returned(await probe(code))).toBe('blocked')
  })

  it('prototype poisoning stays inside: the host prototypes and JSON are intact afterwards', async () => {
    const code = `
      ;(Object.prototype as any).polluted = 'yes'
      ;(Array.prototype as any).push = () => { throw new Error('poisoned push') }
      ;(JSON as any).parse = () => ({ poisoned: true })
      ;(JSON as any).stringify = () => '"poisoned"'
      ;(Promise.prototype as any).then = function () { throw new Error('poisoned then') }
      console.log('poisoned')
      return 'done'`
    const outcome = await probe(code)
    expect(outcome.ok ? outcome.content : outcome.error.message).toBeDefined()
    const plain: Record<string, unknown> = {}
    expect(plain.polluted).toBeUndefined()
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false)
    const list: number[] = []
    list.push(1)
    expect(list).toEqual([1])
    expect(JSON.parse('{"a":1}')).toEqual({ a: 1 })
    expect(JSON.stringify({ a: 1 })).toBe('{"a":1}')
    expect(await Promise.resolve(3).then((value) => value + 1)).toBe(4)
    const after = await runtime.run(fakeRunRequest('return [].concat([1]).length + JSON.parse("1")'))
    expect(after.ok && after.value).toBe(2)
  })

  it('Atomics.wait, SharedArrayBuffer and WebAssembly are gone', async () => {
    const code = `return [typeof (globalThis as any).Atomics, typeof (globalThis as any).SharedArrayBuffer, typeof (globalThis as any).WebAssembly]`
    expect(returned(await probe(code))).toEqual(['undefined', 'undefined', 'undefined'])
  })

  it('resizable and transferable buffers cannot grow past the heap limit', async () => {
    const code = `
      const buffer: any = new ArrayBuffer(8, { maxByteLength: 2 ** 31 } as any)
      const viaBuffer: any = Object.getPrototypeOf(new Uint8Array(4).buffer).constructor
      const other: any = new viaBuffer(8, { maxByteLength: 2 ** 31 })
      return [buffer.resizable, typeof buffer.resize, typeof buffer.transfer, other.resizable, typeof other.resize]`
    expect(returned(await probe(code))).toEqual([false, 'undefined', 'undefined', false, 'undefined'])
  })

  it('tool results and tool errors carry data only', async () => {
    const code = `
      const value: any = await tools.poisoned({})
      const polluted = ({} as any).polluted
      let errorShape = ''
      try { await tools.fail({}) } catch (error: any) {
        errorShape = Object.keys(error).sort().join(',') + ':' + (error instanceof ToolCallError)
      }
      return [typeof value.constructor, value.toString, polluted ?? null, errorShape]`
    expect(returned(await probe(code))).toEqual(['object', 'x', null, 'callId,code,name,toolName:true'])
  })

  it('a hidden tool has no binding and cannot be reached by name', async () => {
    const request = fakeRunRequest(
      `${reach}
       const direct = (tools as any).hidden
       let viaName = 'blocked'
       try { await (tools as any)['hidden']({}) } catch { viaName = 'blocked' }
       return [typeof direct, viaName, Object.keys(tools).sort()]`,
      tools,
    )
    const outcome = await runtime.run({ ...request, toolNames: ['echo', 'fail'] })
    expect(returned(outcome)).toEqual(['undefined', 'blocked', ['echo', 'fail']])
    expect(request.calls.map((call) => call.name)).not.toContain('hidden')
  })

  it('the tools object and its bindings cannot be replaced', async () => {
    const code = `
      try { (globalThis as any).tools = { echo: () => 'fake' } } catch {}
      try { (tools as any).echo = () => 'fake' } catch {}
      return await tools.echo({ real: true })`
    expect(returned(await probe(code))).toEqual({ real: true })
  })
})
