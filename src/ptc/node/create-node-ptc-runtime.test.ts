import { afterAll, describe, expect, it } from 'vitest'
import { fakeRunRequest } from '../__fixtures__/fake-run-request.js'
import type { PtcRunOutcome } from '../ptc-port.js'
import { createNodePtcRuntime } from './create-node-ptc-runtime.js'

const runtime = createNodePtcRuntime({
  limits: { maxOutputBytes: 2_000, maxResultBytes: 2_000, maxSubCalls: 5, maxInputBytes: 5_000, maxSourceBytes: 5_000 },
})
afterAll(() => runtime.close())

function text(outcome: PtcRunOutcome): string {
  if (!outcome.ok) return `Error: ${outcome.error.message}`
  return outcome.content
    .map((part) => (part.type === 'text' ? part.text : `[${'mimeType' in part ? part.mimeType : part.type}]`))
    .join('')
}

describe('createNodePtcRuntime outer result', () => {
  it('renders printed lines then the returned value', async () => {
    const outcome = await runtime.run(
      fakeRunRequest(`console.log('hello', { a: 1 }, [2]); console.warn(3)\nreturn { done: true }`),
    )
    expect(text(outcome)).toMatchInlineSnapshot(`
      "hello {"a":1} [2]
      3
      {"done":true}"
    `)
    expect(outcome.ok && outcome.value).toEqual({ done: true })
  })

  it('says so when a program neither prints nor returns', async () => {
    expect(text(await runtime.run(fakeRunRequest('const unused: number = 1')))).toBe(
      '(run_code completed with no output)',
    )
  })

  it('returns strings raw and keeps captured output on failure', async () => {
    expect(text(await runtime.run(fakeRunRequest(`return 'plain'`)))).toBe('plain')
    const failed = await runtime.run(fakeRunRequest(`console.log('before')\nthrow new Error('boom')`))
    expect(text(failed)).toMatchInlineSnapshot(`
      "Error: code run failed (runtime): program error > Error: boom (line 2, column 7)
      Captured output:
      before"
    `)
    expect(failed.ok ? undefined : failed.error.code).toBe('CODE_RUN_FAILED')
  })

  it('resolves tool calls to canonical values and rejects failures with ToolCallError', async () => {
    const request = fakeRunRequest(
      `const sum = await tools.add({ a: 2, b: 3 })
       try { await tools.broken({}) } catch (error) {
         if (!(error instanceof ToolCallError)) throw error
         console.log(error.toolName, error.code, error.callId, error.message)
       }
       return sum`,
      {
        add: (args) => (args as { a: number; b: number }).a + (args as { a: number; b: number }).b,
        broken: () => {
          throw new Error('it broke')
        },
      },
    )
    const outcome = await runtime.run(request)
    expect(text(outcome)).toBe('broken TOOL_ERROR call-1:ptc:2 it broke\n5')
    expect(outcome.metadata).toEqual({ subCalls: 2, bytesKeptOut: 1 + 'Error: it broke'.length })
  })

  it('attaches images from successful sub-calls with their source and counts kept-out bytes', async () => {
    const image = { type: 'image' as const, data: 'aGVsbG8=', mimeType: 'image/png' }
    const outcome = await runtime.run(
      fakeRunRequest(`await tools.shot({}); const big = await tools.read({}); return big.length`, {
        shot: () => ({ content: [image], value: { saved: true } }),
        read: () => 'x'.repeat(300),
      }),
    )
    expect(outcome.contexts).toEqual([{ source: { toolName: 'shot', callId: 'call-1:ptc:1' }, content: [image] }])
    expect(outcome.metadata).toEqual({ subCalls: 2, bytesKeptOut: 302 })
    expect(text(outcome)).toBe('300')
  })

  it('rejects arguments that are not lossless JSON before they leave the sandbox', async () => {
    const request = fakeRunRequest(`try { await tools.echo({ n: NaN }) } catch (error) { return String(error) }`, {
      echo: (args) => args,
    })
    expect(text(await runtime.run(request))).toContain('tool arguments must be JSON')
    expect(request.calls).toEqual([])
  })

  it('runs setTimeout callbacks and ignores cleared ones', async () => {
    const code = `const order: string[] = []
      const cleared = setTimeout(() => order.push('cleared'), 1)
      clearTimeout(cleared)
      await new Promise((resolve) => setTimeout(() => { order.push('fired'); resolve(null) }, 5))
      return order`
    expect(text(await runtime.run(fakeRunRequest(code)))).toBe('["fired"]')
  })
})

describe('createNodePtcRuntime TypeScript', () => {
  it('strips erasable syntax and keeps line numbers', async () => {
    const code = `interface Point { x: number }\nconst p: Point = { x: 1 } satisfies Point\nconst q = p as Point\nreturn q.x!`
    expect(text(await runtime.run(fakeRunRequest(code)))).toBe('1')
  })

  it.each([
    ['enum Color { Red }', 'unsupported-syntax', 'line 1:1'],
    ['const a = 1\nnamespace N { export const b = 2 }', 'unsupported-syntax', 'line 2:1'],
    ['class C { constructor(private a: number) {} }', 'unsupported-syntax', 'line 1:31'],
    ['const x = <number>y', 'unsupported-syntax', 'line 1:11'],
    ['const ok = 1\nconst broken = 1 +;', 'syntax', 'line 2:19'],
  ])('refuses %j as %s at its position', async (code, kind, where) => {
    const message = text(await runtime.run(fakeRunRequest(code)))
    expect(message).toContain(`code run failed (${kind}):`)
    expect(message).toContain(where)
    expect(message).toContain(code.split('\n').at(-1))
  })

  it('explains how to replace what strip-only mode refuses', async () => {
    expect(text(await runtime.run(fakeRunRequest('enum Color { Red }')))).toMatchInlineSnapshot(`
      "Error: code run failed (unsupported-syntax): TypeScript enum is not supported in strip-only mode at line 1:1 (use a const object with \`as const\` instead of \`enum\`)
        1 | enum Color { Red }"
    `)
  })
})
