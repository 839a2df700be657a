/**
 * `npm run bench hostile-files`: host health while the workspace file tools take issue 14's hostile files (the
 * replaceAll inflation loop, a FIFO, a sparse 1.5 GB file, files of nothing but line breaks). Each run is a fresh
 * host process (`packages/toolkit/src/__fixtures__/hostile-host.ts`, the one the tests use); a row shows the worst of its runs.
 * Goals: no crash, event-loop lag under 100 ms, RSS after the run within 50 MB of the baseline.
 */
import { spawnSync } from 'node:child_process'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { HostileReport } from '@qilin-tools/toolkit/internal/__fixtures__/hostile-host.js'
import { HOSTILE_SCENARIOS } from '@qilin-tools/toolkit/internal/__fixtures__/hostile-host.js'
import { markdownTable } from './measure.js'

const host = fileURLToPath(new URL('../packages/toolkit/src/__fixtures__/hostile-host.ts', import.meta.url))
const runs = Number(process.env.QILIN_BENCH_SAMPLES ?? 3)
const MAX_LAG_MS = 100
const MAX_RSS_GROWTH_MB = 50

function runHost(scenario: string): HostileReport | string {
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--max-old-space-size=512', '--import', 'tsx', host, scenario],
    {
      encoding: 'utf8',
      timeout: 60_000,
      killSignal: 'SIGKILL',
    },
  )
  if (run.status !== 0) return `exit ${run.status ?? run.signal}`
  return JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as HostileReport
}

const rows: (string | number)[][] = []
let failed = false
for (const scenario of HOSTILE_SCENARIOS) {
  const reports: HostileReport[] = []
  let crash: string | undefined
  for (let index = 0; index < runs && crash === undefined; index++) {
    const report = runHost(scenario)
    if (typeof report === 'string') crash = report
    else reports.push(report)
  }
  if (crash !== undefined) {
    failed = true
    rows.push([scenario, crash, '', '', '', '', '', 'host died'])
    continue
  }
  const worst = (figure: (report: HostileReport) => number) => Math.max(...reports.map(figure))
  const lag = worst((report) => report.lagMaxMs)
  const busy = worst((report) => report.lagBusyMs)
  const growth = worst((report) => report.rssAfterMb - report.rssBaselineMb)
  const blocked = reports.some((report) => report.outcomes.some((outcome) => outcome.state === 'pending'))
  const refused = reports[0]?.outcomes.filter((outcome) => outcome.state === 'failed').length ?? 0
  const met = !blocked && lag < MAX_LAG_MS && growth < MAX_RSS_GROWTH_MB
  failed ||= blocked || busy >= MAX_LAG_MS || growth >= MAX_RSS_GROWTH_MB
  rows.push([
    scenario,
    `${reports[0]?.outcomes.length ?? 0} calls, ${refused} refused${blocked ? ', some blocked' : ''}`,
    `${lag.toFixed(1)} ms`,
    `${busy.toFixed(1)} ms`,
    `${worst((report) => report.rssPeakMb - report.rssBaselineMb).toFixed(0)} MB`,
    `${growth.toFixed(0)} MB`,
    `${worst((report) => report.elapsedMs).toFixed(0)} ms`,
    met ? 'met' : 'missed',
  ])
}

console.log(
  markdownTable(
    [
      'scenario',
      'calls',
      'lag max (wall)',
      'lag max (host busy)',
      'RSS peak over baseline',
      'RSS after over baseline',
      'time',
      `goal (<${MAX_LAG_MS} ms, <${MAX_RSS_GROWTH_MB} MB)`,
    ],
    rows,
  ),
)
console.log(
  `\nWorst of ${runs} runs per scenario; load average ${loadavg()[0]?.toFixed(1)}. "Host busy" counts only the part of a late tick this process spent on a CPU: wall lag above it is other processes holding the cores.`,
)
if (failed) process.exit(1)
