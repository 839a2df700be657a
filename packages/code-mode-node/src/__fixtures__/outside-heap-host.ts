/**
 * A library host that runs one program written to allocate outside the V8 heap:
 * `node --expose-gc --no-node-snapshot --import tsx outside-heap-host.ts <scenario> [--keep-mmap-threshold]` (the
 * flag passes `fixMmapThreshold: false`). It runs the program under the
 * default limits while a 5 ms probe timer measures the event-loop lag of the host's own thread, runs an ordinary
 * program after it, closes the runtime and prints one JSON line (`OutsideHeapReport`), then exits through
 * `process.exit` (which segfaulted after the Intl flood of issue 14). The parent watches this process's RSS from
 * `/proc` and kills it past a ceiling, so a regression fails the test instead of taking the machine down.
 */

import { fakeRunRequest } from '@qilin-tools/code-mode/internal/__fixtures__/fake-run-request.js'
import { residentMb, startHealthProbe } from '../../../../test/support/host-health-probe.js'
import { createNodePtcRuntime } from '../create-node-ptc-runtime.js'
import { fixMmapThreshold, type MmapThresholdState } from '../malloc-threshold.js'

export interface OutsideHeapReport {
  readonly scenario: string
  /** The hostile run's outcome: `ok`, or the failure message. */
  readonly outcome: { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string }
  readonly runMs: number
  /** The ordinary program run after the hostile one. */
  readonly after: unknown
  /** The longest a probe tick came late, by the wall clock (other processes share the two cores). */
  readonly lagMaxMs: number
  /** The same, capped by the CPU time the host's main thread spent meanwhile: what the host's own work waited. */
  readonly lagBusyMs: number
  readonly rssBaselineMb: number
  readonly rssPeakMb: number
  readonly rssAfterMb: number
  /** What the runtime did to glibc's mmap threshold in this process. */
  readonly mmapThreshold: MmapThresholdState | 'kept'
}

const flood = (step: string) => `const keep: unknown[] = []\nfor (;;) keep.push(${step})`

/** Each scenario's program and deadline; every one would hold gigabytes, or spin, without its bound. */
export const OUTSIDE_HEAP_SCENARIOS = {
  'intl-date-time-format': { code: flood(`new Intl.DateTimeFormat('en-US', { timeStyle: 'full' })`), timeoutMs: 5_000 },
  'intl-by-computed-name': {
    code: flood(`new (globalThis as any)['Int' + 'l'].Segmenter('en', { granularity: 'word' }).segment('a b')`),
    timeoutMs: 5_000,
  },
  'to-locale-string-with-options': {
    code: `const date = new Date()\nfor (;;) date.toLocaleString('de-DE', { timeStyle: 'full' })`,
    timeoutMs: 5_000,
  },
  'refused-locale-arguments-caught': {
    code: `const date = new Date()\nfor (;;) { try { date.toLocaleTimeString('de-DE', { timeStyle: 'full' }) } catch {} try { 'a'.localeCompare('b', 'de', { sensitivity: 'base' }) } catch {} }`,
    timeoutMs: 2_000,
  },
  'default-locale-flood': {
    code: `const date = new Date()\nlet text = ''\nfor (let i = 0; ; i++) text = date.toLocaleString() + i.toLocaleString() + 'a'.localeCompare('b') + (12n).toLocaleString()`,
    timeoutMs: 2_000,
  },
  'array-buffer-flood': { code: flood('new Uint8Array(1_000_000).fill(1)'), timeoutMs: 5_000 },
} as const
export type OutsideHeapScenario = keyof typeof OUTSIDE_HEAP_SCENARIOS

const collect = (globalThis as { gc?: () => void }).gc ?? (() => {})

const ordinary = `const sorted = ['b', 'a'].sort((x, y) => x.localeCompare(y))
return { sorted, total: await tools.add({ a: 1, b: 2 }), date: new Date(0).toLocaleDateString().length > 0 }`

async function main(scenario: OutsideHeapScenario, keepMmapThreshold: boolean): Promise<OutsideHeapReport> {
  const { code, timeoutMs } = OUTSIDE_HEAP_SCENARIOS[scenario]
  const runtime = createNodePtcRuntime(keepMmapThreshold ? { fixMmapThreshold: false } : {})
  const add = (args: unknown) => {
    const { a, b } = args as { a: number; b: number }
    return a + b
  }
  // Warm the modules, the pool and the JIT on an ordinary program, so the baseline is the host's, not its start-up.
  await runtime.run(fakeRunRequest(ordinary, { add }))
  collect()
  const rssBaselineMb = residentMb()
  const probe = startHealthProbe()
  const started = performance.now()
  const hostile = await runtime.run({ ...fakeRunRequest(code), timeoutMs })
  const runMs = performance.now() - started
  const next = await runtime.run(fakeRunRequest(ordinary, { add }))
  const health = probe.stop()
  await runtime.close()
  collect()
  await new Promise((resolve) => setTimeout(resolve, 100))
  collect()
  return {
    scenario,
    outcome: hostile.ok ? { ok: true, value: hostile.value } : { ok: false, message: hostile.error.message },
    runMs,
    after: next.ok ? next.value : next.error.message,
    lagMaxMs: health.lagMaxMs,
    lagBusyMs: health.lagBusyMs,
    rssBaselineMb,
    rssPeakMb: Math.max(rssBaselineMb, health.rssPeakMb),
    rssAfterMb: residentMb(),
    // Already decided by the runtime unless kept: this call only reads the state.
    mmapThreshold: keepMmapThreshold ? 'kept' : fixMmapThreshold(),
  }
}

const scenario = process.argv[2] as OutsideHeapScenario
if (Object.hasOwn(OUTSIDE_HEAP_SCENARIOS, scenario)) {
  main(scenario, process.argv[3] === '--keep-mmap-threshold').then(
    (report) => {
      process.stdout.write(`${JSON.stringify(report)}\n`, () => process.exit(0))
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
      process.exit(1)
    },
  )
}
