/**
 * A library host under one hostile file: `node --expose-gc --import tsx hostile-host.ts <scenario>` builds a
 * workspace toolkit on a real runtime, runs the scenario's attack while a 5 ms probe timer measures event-loop lag
 * and samples RSS beside it, and prints one JSON line (`HostileReport`). The parent asserts on that line and on the
 * exit code, so an attack that kills the process is seen as such rather than crashing the test worker.
 */
import { execFileSync } from 'node:child_process'
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JsonObject } from 'qilin-tools/internal/json-schema/json-value.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { createWorkspaceToolkit } from '../workspace-toolkit.js'

export interface HostileOutcome {
  readonly label: string
  /** `pending` when the call had not settled by the watchdog. */
  readonly state: 'ok' | 'failed' | 'pending'
  readonly detail: string
  readonly ms: number
}

export interface HostileReport {
  readonly scenario: string
  readonly outcomes: readonly HostileOutcome[]
  /** The longest a probe tick came late, by the wall clock: what other work on the host waited. */
  readonly lagMaxMs: number
  /**
   * The same, counting only time this process was on a CPU during the late tick: the part of the lag the host's
   * own work caused, as opposed to the machine's other processes keeping it off the cores.
   */
  readonly lagBusyMs: number
  readonly rssBaselineMb: number
  readonly rssPeakMb: number
  readonly rssAfterMb: number
  readonly elapsedMs: number
}

export const HOSTILE_SCENARIOS = ['inflate', 'fifo', 'huge', 'lines'] as const
export type HostileScenario = (typeof HOSTILE_SCENARIOS)[number]

/** A call that has not settled by then counts as blocked. */
const WATCHDOG_MS = Number(process.env.QILIN_HOSTILE_WATCHDOG_MS ?? 5_000)
const PROBE_MS = 5
const MB = 1024 * 1024

type Call = (label: string, name: string, args: JsonObject) => Promise<HostileOutcome>

interface Scenario {
  /** Puts the hostile files in place before the probe starts, so the harness's own work is not measured. */
  prepare?(root: string): void
  attack(root: string, call: Call): Promise<HostileOutcome[]>
}

const scenarios: Record<HostileScenario, Scenario> = {
  /** write_file, then edit_file(replaceAll) growing the file eightfold each time: the edit that killed `serve`. */
  inflate: {
    async attack(_root, call) {
      const outcomes = [await call('write', 'write_file', { path: 'grow.txt', content: 'x'.repeat(1024) })]
      for (let round = 1; round <= 8; round++) {
        const outcome = await call(`edit ${round}`, 'edit_file', {
          path: 'grow.txt',
          oldText: 'x',
          newText: 'xxxxxxxx',
          replaceAll: true,
        })
        outcomes.push(outcome)
        if (outcome.state !== 'ok') break
      }
      return outcomes
    },
  },
  /** A named pipe read, edited, written and grepped by several calls at once, while the host reads another file. */
  fifo: {
    prepare: (root) => execFileSync('mkfifo', [join(root, 'pipe')]),
    async attack(root, call) {
      return await Promise.all([
        ...[1, 2, 3, 4].map((index) => call(`read ${index}`, 'read_file', { path: 'pipe' })),
        call('grep file', 'grep', { pattern: 'x', path: 'pipe' }),
        call('grep directory', 'grep', { pattern: 'other' }),
        call('edit', 'edit_file', { path: 'pipe', oldText: 'a', newText: 'b' }),
        call('write', 'write_file', { path: 'pipe', content: 'x' }),
        hostRead(root),
      ])
    },
  },
  /** A sparse 1.5 GB file (no disk used) read twice at once, edited and grepped. */
  huge: {
    prepare(root) {
      const descriptor = openSync(join(root, 'big.log'), 'w')
      ftruncateSync(descriptor, 1536 * MB)
      closeSync(descriptor)
    },
    async attack(root, call) {
      return await Promise.all([
        call('read 1', 'read_file', { path: 'big.log' }),
        call('read 2', 'read_file', { path: 'big.log' }),
        call('grep file', 'grep', { pattern: 'x', path: 'big.log' }),
        call('grep directory', 'grep', { pattern: 'other' }),
        hostRead(root),
      ]).then(async (parallel) => [
        ...parallel,
        await call('edit', 'edit_file', { path: 'big.log', oldText: 'a', newText: 'b' }),
      ])
    },
  },
  /** Files of nothing but line breaks, just under the limits: the most lines and matches a file can hold. */
  lines: {
    prepare(root) {
      writeFileSync(join(root, 'lines.txt'), Buffer.alloc(10 * MB - 1, 10))
      writeFileSync(join(root, 'pairs.txt'), Buffer.alloc(5 * MB - 1, 'a\n'))
    },
    async attack(_root, call) {
      return [
        await call('read middle', 'read_file', { path: 'lines.txt', offset: 5_000_000, limit: 5 }),
        await call('grep no match', 'grep', { pattern: 'b', path: 'pairs.txt' }),
        await call('grep context', 'grep', { pattern: 'a', path: 'pairs.txt', context: 20, maxResults: 1000 }),
        await call('edit every line', 'edit_file', {
          path: 'lines.txt',
          oldText: '\n',
          newText: ' ',
          replaceAll: true,
        }),
      ]
    },
  },
}

/** The host's own file I/O, beside the attack: it shares the libuv threadpool with the tools. */
async function hostRead(root: string): Promise<HostileOutcome> {
  const start = performance.now()
  const read = readFile(join(root, 'other.txt'), 'utf8').then(
    (text): HostileOutcome => ({
      label: 'host fs read',
      state: 'ok',
      detail: `${text.length} chars`,
      ms: performance.now() - start,
    }),
  )
  return await watched('host fs read', read)
}

async function watched(label: string, work: Promise<HostileOutcome>): Promise<HostileOutcome> {
  let watchdog: NodeJS.Timeout | undefined
  const pending = new Promise<HostileOutcome>((resolve) => {
    watchdog = setTimeout(
      () => resolve({ label, state: 'pending', detail: `unsettled after ${WATCHDOG_MS} ms`, ms: WATCHDOG_MS }),
      WATCHDOG_MS,
    )
  })
  const outcome = await Promise.race([work, pending])
  clearTimeout(watchdog)
  return outcome
}

const rssMb = () => process.memoryUsage.rss() / MB

/** A timer that should fire every 5 ms: how late it fires is the lag other work on the event loop sees. */
function startProbe() {
  const figures = { lagMaxMs: 0, lagBusyMs: 0, rssPeakMb: rssMb() }
  let last = performance.now()
  let lastCpu = process.cpuUsage()
  const timer = setInterval(() => {
    const now = performance.now()
    const cpu = process.cpuUsage()
    const lag = Math.max(0, now - last - PROBE_MS)
    const busy = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000
    figures.lagMaxMs = Math.max(figures.lagMaxMs, lag)
    figures.lagBusyMs = Math.max(figures.lagBusyMs, Math.min(lag, busy))
    figures.rssPeakMb = Math.max(figures.rssPeakMb, rssMb())
    last = now
    lastCpu = cpu
  }, PROBE_MS)
  return {
    stop() {
      clearInterval(timer)
      return figures
    },
  }
}

async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error('run the hostile host with --expose-gc')
  for (let round = 0; round < 3; round++) {
    gc()
    await new Promise((resolve) => setImmediate(resolve))
  }
}

export async function runHostileScenario(scenario: HostileScenario): Promise<HostileReport> {
  const base = mkdtempSync(join(tmpdir(), 'qilin-hostile-'))
  const root = join(base, 'root')
  mkdirSync(root)
  writeFileSync(join(root, 'other.txt'), 'other\n')
  const runtime = createToolRuntime()
  createWorkspaceToolkit({ root, withoutBash: true }).register(runtime)
  let serial = 0
  const call: Call = async (label, name, args) => {
    const start = performance.now()
    const settled = runtime.execute({ id: `call-${++serial}`, name, arguments: args }).then(
      (result): HostileOutcome => ({
        label,
        state: result.ok ? 'ok' : 'failed',
        detail: result.ok
          ? JSON.stringify(result.value).slice(0, 120)
          : `${result.error.code}: ${result.error.message}`,
        ms: performance.now() - start,
      }),
    )
    return await watched(label, settled)
  }
  scenarios[scenario].prepare?.(root)
  await call('warm-up', 'read_file', { path: 'other.txt' })
  await collectGarbage()
  const rssBaselineMb = rssMb()
  const probe = startProbe()
  const start = performance.now()
  try {
    const outcomes = await scenarios[scenario].attack(root, call)
    const elapsedMs = performance.now() - start
    const figures = probe.stop()
    await collectGarbage()
    return {
      scenario,
      outcomes,
      ...figures,
      rssBaselineMb,
      rssAfterMb: rssMb(),
      elapsedMs,
    }
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}

const [, entry, scenario] = process.argv
if (entry !== undefined && import.meta.url.endsWith(entry.split('/').pop() ?? '')) {
  if (!HOSTILE_SCENARIOS.includes(scenario as HostileScenario)) {
    console.error(`usage: hostile-host.ts <${HOSTILE_SCENARIOS.join('|')}>`)
    process.exit(2)
  }
  const report = await runHostileScenario(scenario as HostileScenario)
  console.log(JSON.stringify(report))
  // A call still blocked in the threadpool would keep the process alive; the report is out, so leave.
  process.exit(0)
}
