/**
 * `npm run bench hostile-programs`: host health while Node code mode runs issue 14's hostile programs: the bridge
 * attacks (a forged failure, a forged malformed `done`, a timer flood behind a poisoned Map, a 5,000-deep argument,
 * poisoned built-ins) and the floods outside the V8 heap (Intl objects, locale strings, array buffers). Each run is
 * a fresh host process (the fixtures the tests use: `bridge-attack-host.ts`, `outside-heap-host.ts`), watched from
 * outside and killed past 1 GB; a row shows the worst of its runs. The host then runs an ordinary program, which
 * must still answer. Goals: no crash, event-loop lag under 100 ms, RSS after the run within 50 MB of the baseline.
 */
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import {
  BRIDGE_ATTACK_SCENARIOS,
  type BridgeAttackReport,
} from '@qilin-tools/code-mode-node/internal/__fixtures__/bridge-attack-host.js'
import {
  OUTSIDE_HEAP_SCENARIOS,
  type OutsideHeapReport,
} from '@qilin-tools/code-mode-node/internal/__fixtures__/outside-heap-host.js'
import { runChildHost } from '../test/support/child-host.js'
import { markdownTable } from './measure.js'

const fixtures = new URL('../packages/code-mode-node/src/__fixtures__/', import.meta.url)
const hosts = {
  bridge: fileURLToPath(new URL('bridge-attack-host.ts', fixtures)),
  outsideHeap: fileURLToPath(new URL('outside-heap-host.ts', fixtures)),
}
const runs = Number(process.env.QILIN_BENCH_SAMPLES ?? 3)
const MAX_LAG_MS = 100
const MAX_RSS_GROWTH_MB = 50
const RSS_CEILING_MB = 1_024

type Report = BridgeAttackReport | OutsideHeapReport
type Run = { report: Report; watchedPeakMb: number } | { died: string }

async function runHost(host: string, scenario: string, hostArguments: readonly string[]): Promise<Run> {
  const run = await runChildHost<Report>(host, [scenario, ...hostArguments], {
    nodeFlags: ['--expose-gc', '--no-node-snapshot'],
    timeoutMs: 60_000,
    rssCeilingMb: RSS_CEILING_MB,
  })
  if (run.ceilingPassed) return { died: `killed past ${RSS_CEILING_MB} MB` }
  if (run.code !== 0 || run.report === undefined) return { died: `exit ${run.code ?? run.signal}` }
  return { report: run.report, watchedPeakMb: run.watchedPeakMb }
}

/** The ordinary program both hosts run after the hostile one; a host that still answers it is still working. */
const answeredAfter = (report: Report) =>
  typeof report.after === 'object' && report.after !== null && (report.after as { total?: unknown }).total === 3

const outcomeText = (report: Report) => {
  if (!report.outcome.ok) return `failed: ${report.outcome.message.split('\n')[0]!.slice(0, 70)}`
  return 'ok'
}

const rows: (string | number)[][] = []
let failed = false
const loadBefore = loadavg()
/**
 * glibc's fixed mmap threshold, as the `qilin-tools` command's first line sets it: freed array buffers go back to
 * the system instead of staying in its arenas. Read from that line, so the row measures what the command does.
 */
const commandLine = readFileSync(new URL('../packages/cli/bin/qilin-tools.js', import.meta.url), 'utf8').split('\n')[0]!
const givesPagesBack = /\bGLIBC_TUNABLES=(\S+)/.exec(commandLine)?.[1]
if (givesPagesBack === undefined)
  throw new Error(`the qilin-tools command no longer sets GLIBC_TUNABLES: ${commandLine}`)
/** The array-buffer flood also runs with the runtime's own fix turned off, to show what it is for. */
const keptThreshold = '--keep-mmap-threshold'
const scenarios: { name: string; host: string; tunables?: string; hostArguments?: readonly string[] }[] = [
  ...Object.keys(BRIDGE_ATTACK_SCENARIOS).map((name) => ({ name, host: hosts.bridge })),
  ...Object.keys(OUTSIDE_HEAP_SCENARIOS).map((name) => ({ name, host: hosts.outsideHeap })),
  { name: 'array-buffer-flood', host: hosts.outsideHeap, hostArguments: [keptThreshold] },
  { name: 'array-buffer-flood', host: hosts.outsideHeap, tunables: givesPagesBack },
]
for (const { name, host, tunables, hostArguments = [] } of scenarios) {
  const reports: { report: Report; watchedPeakMb: number }[] = []
  let died: string | undefined
  if (tunables === undefined) delete process.env.GLIBC_TUNABLES
  else process.env.GLIBC_TUNABLES = tunables
  // The host processes inherit this environment; only the row that says so runs with tunables.
  const label =
    tunables !== undefined
      ? `${name}, host started as the qilin-tools command starts (GLIBC_TUNABLES=${tunables})`
      : hostArguments.includes(keptThreshold)
        ? `${name}, host started plainly, runtime told \`fixMmapThreshold: false\``
        : name
  for (let index = 0; index < runs && died === undefined; index++) {
    const run = await runHost(host, name, hostArguments)
    if ('died' in run) died = run.died
    else reports.push(run)
  }
  if (died !== undefined) {
    failed = true
    rows.push([label, died, '', '', '', '', '', 'host died'])
    continue
  }
  const worst = (figure: (run: (typeof reports)[number]) => number) => Math.max(...reports.map(figure))
  const lag = worst(({ report }) => report.lagMaxMs)
  const busy = worst(({ report }) => report.lagBusyMs)
  const growth = worst(({ report }) => report.rssAfterMb - report.rssBaselineMb)
  const stillWorking = reports.every(({ report }) => answeredAfter(report))
  const met = stillWorking && busy < MAX_LAG_MS && growth < MAX_RSS_GROWTH_MB
  // The opt-out row shows what the fix is for; a host that turns it off takes on the RSS, so it is not judged.
  const judged = !hostArguments.includes(keptThreshold)
  failed ||= judged && !met
  rows.push([
    label,
    outcomeText(reports[0]!.report),
    `${lag.toFixed(1)} ms`,
    `${busy.toFixed(1)} ms`,
    `${worst(({ report, watchedPeakMb }) => watchedPeakMb - report.rssBaselineMb).toFixed(0)} MB`,
    `${growth.toFixed(0)} MB`,
    `${worst(({ report }) => report.runMs).toFixed(0)} ms`,
    `${met ? 'met' : stillWorking ? 'missed' : 'missed: next program failed'}${judged ? '' : ' (opt-out, not judged)'}`,
  ])
}

console.log(
  markdownTable(
    [
      'program',
      'what the model got',
      'lag max (wall)',
      'lag max (host busy)',
      'RSS peak over baseline',
      'RSS after over baseline',
      'run time',
      `goal (<${MAX_LAG_MS} ms busy, <${MAX_RSS_GROWTH_MB} MB after)`,
    ],
    rows,
  ),
)
const loadText = (load: number[]) => load.map((value) => value.toFixed(2)).join(' ')
console.log(
  `\nWorst of ${runs} runs per row, each in a fresh host process. Wall lag also counts time other processes on the` +
    ` shared cores held this one; the goal is judged on lag while the host's own thread was busy. An array-buffer` +
    ` flood ends at the heap limit; glibc, left to raise its mmap threshold, keeps the freed pages in its` +
    ` per-thread arenas (the row with \`fixMmapThreshold: false\`). The runtime fixes the threshold at 64 KiB` +
    ` through its install-time addon in a host started plainly (the plain row), as the qilin-tools command does` +
    ` with GLIBC_TUNABLES=${givesPagesBack} (its row).` +
    `\nLoad average (1, 5, 15 min): ${loadText(loadBefore)} before, ${loadText(loadavg())} after.`,
)
if (failed) process.exitCode = 1
