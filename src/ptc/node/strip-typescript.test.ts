import { afterAll, describe, expect, it } from 'vitest'
import { fakeRunRequest } from '../__fixtures__/fake-run-request.js'
import { defaultPtcLimits } from '../ptc-limits.js'
import type { PtcRunOutcome } from '../ptc-port.js'
import { createNodePtcRuntime } from './create-node-ptc-runtime.js'
import { maxNestingDepth, stripTypeScript } from './strip-typescript.js'

const runtime = createNodePtcRuntime({ poolSize: 1 })
afterAll(() => runtime.close())

function text(outcome: PtcRunOutcome): string {
  if (!outcome.ok) return `Error: ${outcome.error.message}`
  return outcome.content
    .map((part) => (part.type === 'text' ? part.text : `[${'mimeType' in part ? part.mimeType : part.type}]`))
    .join('')
}

/** A typed program every attack must leave working, for every later caller in the process. */
const normalProgram = 'interface Point { x: number }\nconst p: Point = { x: 41 }\nreturn p.x + 1'

async function expectCodeModeWorks(): Promise<void> {
  expect(text(await runtime.run(fakeRunRequest(normalProgram)))).toBe('42')
}

/** A timer that should fire every 5 ms: how late it fires is what other work on the host's event loop waits. */
async function measureHost<T>(work: () => Promise<T>): Promise<{ result: T; lagMaxMs: number; utilization: number }> {
  let lagMaxMs = 0
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    lagMaxMs = Math.max(lagMaxMs, now - last - 5)
    last = now
  }, 5)
  const before = performance.eventLoopUtilization()
  try {
    const result = await work()
    return { result, lagMaxMs, utilization: performance.eventLoopUtilization(before).utilization }
  } finally {
    clearInterval(timer)
  }
}

/** The shapes of issue 14, 2,000 levels deep: each broke amaro's WebAssembly memory for the whole process. */
const attacks: readonly (readonly [string, string])[] = [
  ['braces (the 4 KB program of the issue)', `${'{'.repeat(2_000)}${'}'.repeat(2_000)}`],
  ['parentheses', `return ${'('.repeat(2_000)}1${')'.repeat(2_000)}`],
  ['brackets', `return ${'['.repeat(2_000)}${']'.repeat(2_000)}`],
  ['generics', `type T = ${'A<'.repeat(2_000)}B${'>'.repeat(2_000)}\nreturn 1`],
  ['template literals', `return ${'`${'.repeat(2_000)}1${'}`'.repeat(2_000)}`],
  ['arrow functions in blocks', `return ${'() => { return '.repeat(2_000)}1${' }'.repeat(2_000)}`],
]

/** Shapes with no brackets to count: they pass the bound and fault the stripper itself. */
const unboundedShapes: readonly (readonly [string, string])[] = [
  ['an assignment chain', `let a = 0\n${'a = '.repeat(5_000)}1`],
  ['a new chain', `return ${'new '.repeat(5_000)}Date()`],
  ['an addition chain', `return 1${'+1'.repeat(90_000)}`],
  ['if without braces', `${'if (true) '.repeat(5_000)}return 1`],
  ['a member chain', `return a${'.b'.repeat(50_000)}`],
]

describe('a hostile program cannot break TypeScript code mode for the process (issue 14)', () => {
  it.each(attacks)('%s: refused with the bound named, and the next program works', async (_shape, attack) => {
    const message = text(await runtime.run(fakeRunRequest(attack)))
    expect(message).toContain(`code run failed (source-limit): the program nests deeper than ${maxNestingDepth} levels`)
    expect(message).toMatch(/at line \d+:\d+/)
    await expectCodeModeWorks()
  })

  it('names where the nesting went too deep and shows that part of the line, not all of it', async () => {
    const message = text(await runtime.run(fakeRunRequest(`const ok = 1\nreturn ${'['.repeat(2_000)}`)))
    expect(message).toContain(`levels at line 2:${'return '.length + maxNestingDepth + 1} `)
    expect(message).toContain(`  2 | …${'['.repeat(120)}…`)
    expect(message.length).toBeLessThan(800)
  })

  it('the refusal the model reads', async () => {
    expect(
      text(await runtime.run(fakeRunRequest(`const data = ${'['.repeat(300)}${']'.repeat(300)}`))),
    ).toMatchInlineSnapshot(`
        "Error: code run failed (source-limit): the program nests deeper than 256 levels at line 1:270 (each open bracket, brace, parenthesis, type argument list and template \`\${\` is a level); build deep data with a loop or JSON.parse, and move nested functions out to the top level
          1 | …[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]…"
      `)
  })

  it('the fault the model reads names what to change', async () => {
    expect(text(await runtime.run(fakeRunRequest(`let a = 0\n${'a = '.repeat(5_000)}1`)))).toMatch(
      /^Error: code run failed \(source-limit\): the type stripper ran out of stack on this program \((RuntimeError: memory access out of bounds|RangeError: Maximum call stack size exceeded)\): it nests too deeply or chains too many operators in one expression \(a = b = c …, a\.b\.c …, new new …, x!!! …\); split long expressions into statements and nested code into functions$/,
    )
  })

  it.each(unboundedShapes)(
    '%s: the stripper faults, costs that program only, and is replaced',
    async (_shape, attack) => {
      const message = text(await runtime.run(fakeRunRequest(attack)))
      expect(message).toMatch(/^Error: code run failed \((source-limit|sandbox)\): the type stripper /)
      await expectCodeModeWorks()
    },
  )

  it('the issue program, repeated by many callers at once, leaves every innocent program working', async () => {
    const attack = `${'{'.repeat(2_000)}${'}'.repeat(2_000)}`
    const fault = `let a = 0\n${'a = '.repeat(5_000)}1`
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        runtime.run(fakeRunRequest([attack, fault, normalProgram][index % 3] ?? '')),
      ),
    )
    outcomes.forEach((outcome, index) => {
      if (index % 3 === 2) expect(text(outcome)).toBe('42')
      else expect(text(outcome)).toContain('code run failed (source-limit)')
    })
  })

  it('a fault in one runtime leaves every other runtime in the process working', async () => {
    const other = createNodePtcRuntime({ poolSize: 0 })
    try {
      await runtime.run(fakeRunRequest(`let a = 0\n${'a = '.repeat(5_000)}1`))
      expect(text(await other.run(fakeRunRequest(normalProgram)))).toBe('42')
    } finally {
      await other.close()
    }
  })

  it('a program at the bound strips, and the next level is refused', async () => {
    const atBound = await stripTypeScript(`return ${'['.repeat(maxNestingDepth)}${']'.repeat(maxNestingDepth)}`)
    expect(atBound.ok).toBe(true)
    const past = await stripTypeScript(`return ${'['.repeat(maxNestingDepth + 1)}${']'.repeat(maxNestingDepth + 1)}`)
    expect(past.ok === false && past.failure.kind).toBe('source-limit')
  })

  it('the host stays responsive while the stripper works through the largest program allowed', async () => {
    const deep = `${'{'.repeat(maxNestingDepth)}${'}'.repeat(maxNestingDepth)}\n`
    const typed = 'const value: Record<string, number> = { a: 1 }\nfunction f<T extends object>(x: T): T { return x }\n'
    const unit = `${deep}${typed}`
    const program = unit.repeat(Math.floor(defaultPtcLimits.maxSourceBytes / unit.length))
    expect(program.length).toBeGreaterThan(defaultPtcLimits.maxSourceBytes * 0.95)
    await stripTypeScript('')
    const started = performance.now()
    const { result, lagMaxMs, utilization } = await measureHost(() => stripTypeScript(program))
    const strippedMs = performance.now() - started
    expect(result.ok).toBe(true)
    expect(strippedMs).toBeGreaterThan(20)
    expect(lagMaxMs).toBeLessThan(Math.max(50, strippedMs / 2))
    expect(utilization).toBeLessThan(0.5)
  })

  it('the host stays responsive while attacks are refused and faults replace the stripper', async () => {
    const { lagMaxMs } = await measureHost(async () => {
      for (const [, attack] of [...attacks, ...unboundedShapes]) await runtime.run(fakeRunRequest(attack))
    })
    expect(lagMaxMs).toBeLessThan(250)
    await expectCodeModeWorks()
  })
})
