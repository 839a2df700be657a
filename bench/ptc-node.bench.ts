/**
 * Node code mode: time to the first statement and to the result of `return 1` (pooled and unpooled); what a
 * sub-call adds, sequentially and under Promise.all, in wall time and in process CPU (every thread, the isolates'
 * included), over the same program without tool calls; the same with 50 programs running at once; and the CPU of
 * the two peer runtimes on the same isolated-vm build, side by side in this one run. Sub-calls answer from a plain
 * function in every runtime, so the figures are each bridge's own cost.
 */

import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import type { PtcRunRequest } from '@qilin-tools/code-mode/internal/ptc-port.js'
import {
  createNodePtcRuntime,
  type NodePtcRuntime,
} from '@qilin-tools/code-mode-node/internal/create-node-ptc-runtime.js'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import type { ToolResult } from 'qilin-tools/internal/pipeline/call.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { formatNs, markdownTable, summarize } from './measure.js'

const coldSamples = 200
const callsPerProgram = 2_000
const overheadSamples = 15
const concurrentPrograms = 50
const callsPerConcurrentProgram = 200

function request(code: string): PtcRunRequest {
  let count = 0
  return {
    code,
    timeoutMs: 60_000,
    permissions: 'use_default',
    signal: new AbortController().signal,
    callId: 'bench',
    toolNames: ['noop'],
    callTool: async (name): Promise<ToolResult> => {
      count++
      return { id: `bench:ptc:${count}`, name, ok: true, content: [], value: 1, durationMs: 0 }
    },
  }
}

/** Dispatch → first statement (`started`) and dispatch → outcome, per run, with the pool full before each. */
async function coldStart(poolSize: number): Promise<{ started: number[]; result: number[] }> {
  let dispatched = 0n
  const started: number[] = []
  const result: number[] = []
  const runtime: NodePtcRuntime = createNodePtcRuntime({
    poolSize,
    hooks: { started: () => started.push(Number(process.hrtime.bigint() - dispatched)) },
  })
  await runtime.warm()
  for (let sample = 0; sample < coldSamples + 10; sample++) {
    await runtime.warm()
    dispatched = process.hrtime.bigint()
    const outcome = await runtime.run(request('return 1'))
    result.push(Number(process.hrtime.bigint() - dispatched))
    if (!outcome.ok) throw new Error(outcome.error.message)
  }
  await runtime.close()
  return { started: started.slice(10), result: result.slice(10) }
}

/** Runs a batch of programs at once; `prepare` runs untimed before each batch (a pool's refill). */
interface ProgramRunner {
  readonly call: (index: string) => string
  readonly prepare: () => Promise<void>
  readonly run: (code: string) => Promise<void>
}

interface CallCost {
  /** Wall nanoseconds per sub-call. */
  readonly wallNs: number
  /** Process CPU nanoseconds (user + system, all threads) per sub-call. */
  readonly cpuNs: number
}

/**
 * The median, over alternating samples, of (programs with calls − the same programs awaiting a resolved promise
 * instead) / calls, in wall time and in CPU.
 */
async function callCost(
  runner: ProgramRunner,
  style: 'sequential' | 'parallel',
  programs = 1,
  calls = callsPerProgram,
): Promise<CallCost> {
  const program = (step: string) =>
    style === 'sequential'
      ? `for (let i = 0; i < ${calls}; i++) await ${step}`
      : `await Promise.all(Array.from({ length: ${calls} }, (_, i) => ${step}))`
  const withCalls = program(runner.call('i'))
  const withoutCalls = program('Promise.resolve({ i })')
  const timed = async (code: string) => {
    await runner.prepare()
    const cpu = process.cpuUsage()
    const start = process.hrtime.bigint()
    await Promise.all(Array.from({ length: programs }, () => runner.run(code)))
    const wall = Number(process.hrtime.bigint() - start)
    const used = process.cpuUsage(cpu)
    return { wall, cpu: (used.user + used.system) * 1000 }
  }
  const wall: number[] = []
  const cpu: number[] = []
  const total = programs * calls
  for (let sample = 0; sample < overheadSamples + 3; sample++) {
    const base = await timed(withoutCalls)
    const measured = await timed(withCalls)
    if (sample < 3) continue
    wall.push((measured.wall - base.wall) / total)
    cpu.push((measured.cpu - base.cpu) / total)
  }
  return { wallNs: summarize(wall).medianNs, cpuNs: summarize(cpu).medianNs }
}

function ours(options: Parameters<typeof createNodePtcRuntime>[0]): ProgramRunner & { close(): Promise<void> } {
  const runtime = createNodePtcRuntime(options)
  return {
    call: (index) => `tools.noop({ i: ${index} })`,
    prepare: () => runtime.warm(),
    async run(code) {
      const outcome = await runtime.run(request(code))
      if (!outcome.ok) throw new Error(outcome.error.message)
    },
    close: () => runtime.close(),
  }
}

/** The peers' own install (bench/peers), made on first use; undefined when it is there. */
function installPeers(): string | undefined {
  const folder = new URL('./peers/', import.meta.url).pathname
  if (existsSync(`${folder}node_modules/@utcp/code-mode`) && existsSync(`${folder}node_modules/@tanstack/ai-code-mode`))
    return undefined
  const install = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: folder,
    encoding: 'utf8',
  })
  return install.status === 0 ? undefined : `npm ci in bench/peers failed: ${install.stderr.trim().slice(-300)}`
}

/** The same sequential program through the real pipeline (validation, policy, scheduling, logging included). */
async function pipelineOverhead(): Promise<number> {
  const ptc = createNodePtcRuntime({ poolSize: 1, limits: { maxSubCalls: callsPerProgram * 2 } })
  const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime: ptc })
  runtime.register(
    defineTool({ name: 'noop', description: 'Does nothing', parameters: { i: { type: 'integer' } }, execute: () => 1 }),
  )
  const cost = await callCost(
    {
      call: (index) => `tools.noop({ i: ${index} })`,
      prepare: () => ptc.warm(),
      async run(code) {
        const result = await runtime.execute({
          id: 'bench',
          name: 'run_code',
          arguments: { code, description: 'bench' },
        })
        if (!result.ok) throw new Error(result.error.message)
      },
    },
    'sequential',
  )
  await ptc.close()
  return cost.wallNs
}

const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')
const loadAtStart = loadAverage()
const pooled = await coldStart(2)
const unpooled = await coldStart(0)
const single = ours({ poolSize: 1, limits: { maxSubCalls: callsPerProgram * 2 } })
const sequential = await callCost(single, 'sequential')
const parallel = await callCost(single, 'parallel')
await single.close()
const many = ours({
  poolSize: 2,
  maxConcurrentRuns: concurrentPrograms,
  limits: { maxSubCalls: callsPerConcurrentProgram * 2 },
})
const atOnce = await callCost(many, 'sequential', concurrentPrograms, callsPerConcurrentProgram)
await many.close()
const throughPipeline = await pipelineOverhead()

const installProblem = installPeers()
const { loadPeers } = installProblem === undefined ? await import('./peers/peer-runtimes.mjs') : { loadPeers: null }
type PeerColumn = { name: string; sequential?: CallCost; parallel?: CallCost; reason?: string }
const peers: PeerColumn[] = []
if (loadPeers === null) {
  for (const name of ['@tanstack/ai-code-mode', '@utcp/code-mode']) peers.push({ name, reason: installProblem ?? '' })
} else {
  for (const loaded of await loadPeers()) {
    if (!loaded.ok) {
      peers.push({ name: loaded.name, reason: loaded.reason })
      continue
    }
    const runner: ProgramRunner = { ...loaded.runtime, prepare: async () => {} }
    peers.push({
      name: loaded.runtime.name,
      sequential: await callCost(runner, 'sequential'),
      parallel: await callCost(runner, 'parallel'),
    })
  }
}

const failures: string[] = []
const met = (label: string, ok: boolean) => {
  if (!ok) failures.push(label)
  return ok ? 'yes' : 'NO'
}
const resultP50 = summarize(pooled.result)
const startedP50 = summarize(pooled.started)
const rows: (string | number)[][] = [
  [
    '`return 1`: dispatch → result, pooled',
    formatNs(resultP50.medianNs),
    formatNs(resultP50.p90Ns),
    '≤ 1 ms',
    met('return 1 result', resultP50.medianNs <= 1e6),
  ],
  ['`return 1`: dispatch → result, unpooled', formatNs(summarize(unpooled.result).medianNs), '', '-', '-'],
  [
    'cold start, pooled (dispatch → first statement)',
    formatNs(startedP50.medianNs),
    formatNs(startedP50.p90Ns),
    '≤ 5 ms',
    met('cold start', startedP50.medianNs <= 5e6),
  ],
  ['cold start, unpooled', formatNs(summarize(unpooled.started).medianNs), '', '-', '-'],
  [
    'sub-call wall overhead, sequential',
    formatNs(sequential.wallNs),
    '',
    '≤ 50 µs',
    met('seq', sequential.wallNs <= 50e3),
  ],
  [
    'sub-call wall overhead, Promise.all',
    formatNs(parallel.wallNs),
    '',
    '≤ 20 µs',
    met('all', parallel.wallNs <= 20e3),
  ],
  ['sub-call, sequential, through the whole pipeline (wall, for reference)', formatNs(throughPipeline), '', '-', '-'],
]
const benchCpu = process.cpuUsage()
console.log(
  `Load average ${loadAtStart} at the start, ${loadAverage()} at the end, on ${cpus().length} CPUs; this process used ` +
    `${((benchCpu.user + benchCpu.system) / 1e6).toFixed(1)} s of CPU (user ${(benchCpu.user / 1e6).toFixed(1)} s).\n`,
)
console.log(markdownTable(['measure', 'p50', 'p90', 'target', 'met'], rows))

const cpuCell = (cost: CallCost | undefined, reason: string | undefined) =>
  cost === undefined ? `cannot run: ${reason}` : formatNs(cost.cpuNs)
const measuredPeers = peers.filter((peer) => peer.sequential !== undefined && peer.parallel !== undefined)
const cheapest = (pick: (peer: PeerColumn) => number) => Math.min(...measuredPeers.map(pick))
const sequentialRatio = sequential.cpuNs / cheapest((peer) => peer.sequential?.cpuNs ?? Number.POSITIVE_INFINITY)
const parallelRatio = cheapest((peer) => peer.parallel?.cpuNs ?? Number.POSITIVE_INFINITY) / parallel.cpuNs
const concurrentRatio = atOnce.cpuNs / sequential.cpuNs
const peerRows: (string | number)[][] = [
  [
    'CPU per sequential sub-call',
    formatNs(sequential.cpuNs),
    ...peers.map((peer) => cpuCell(peer.sequential, peer.reason)),
    `ours / cheaper peer ${sequentialRatio.toFixed(2)}x`,
    '≤ 1.00x',
    met('sequential CPU', measuredPeers.length === 2 && sequentialRatio <= 1),
  ],
  [
    'CPU per sub-call under Promise.all',
    formatNs(parallel.cpuNs),
    ...peers.map((peer) => cpuCell(peer.parallel, peer.reason)),
    `cheaper peer / ours ${parallelRatio.toFixed(2)}x`,
    '≥ 1.40x',
    met('Promise.all CPU', measuredPeers.length === 2 && parallelRatio >= 1.4),
  ],
  [
    `CPU per sequential sub-call, ${concurrentPrograms} programs at once (${callsPerConcurrentProgram} calls each)`,
    formatNs(atOnce.cpuNs),
    ...peers.map(() => '-'),
    `vs one program ${concurrentRatio.toFixed(2)}x`,
    '≤ 1.50x',
    met('50 at once', concurrentRatio <= 1.5),
  ],
]
console.log('')
console.log(
  markdownTable(
    ['CPU (user + system, all threads)', 'ours', ...peers.map((peer) => peer.name), 'ratio', 'target', 'met'],
    peerRows,
  ),
)
if (failures.length > 0) {
  console.log(`\nTargets missed: ${failures.join(', ')}`)
  process.exitCode = 1
}
