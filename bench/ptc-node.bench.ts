/**
 * Node code mode: cold start from dispatch to the program's first statement (pooled and unpooled), and the
 * cost a sub-call adds, sequentially and under Promise.all, over the same program without tool calls.
 * Sub-calls answer from a plain function, so the figures are the sandbox bridge's own overhead.
 */
import { defineTool } from '../src/definition/define-tool.js'
import type { ToolResult } from '../src/pipeline/call.js'
import { createToolRuntime } from '../src/pipeline/create-tool-runtime.js'
import { createNodePtcRuntime, type NodePtcRuntime } from '../src/ptc/node/create-node-ptc-runtime.js'
import type { PtcRunRequest } from '../src/ptc/ptc-port.js'
import { formatNs, markdownTable, summarize } from './measure.js'

const coldSamples = 200
const callsPerProgram = 2_000
const overheadSamples = 15

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

async function coldStart(poolSize: number): Promise<number[]> {
  let dispatched = 0n
  const samples: number[] = []
  const runtime: NodePtcRuntime = createNodePtcRuntime({
    poolSize,
    hooks: { started: () => samples.push(Number(process.hrtime.bigint() - dispatched)) },
  })
  await runtime.warm()
  for (let sample = 0; sample < coldSamples + 10; sample++) {
    await runtime.warm()
    dispatched = process.hrtime.bigint()
    const outcome = await runtime.run(request('return 1'))
    if (!outcome.ok) throw new Error(outcome.error.message)
  }
  await runtime.close()
  return samples.slice(10)
}

async function programNs(runtime: NodePtcRuntime, code: string): Promise<number> {
  await runtime.warm()
  const start = process.hrtime.bigint()
  const outcome = await runtime.run(request(code))
  const elapsed = Number(process.hrtime.bigint() - start)
  if (!outcome.ok) throw new Error(outcome.error.message)
  return elapsed
}

async function perCallOverhead(withCalls: string, withoutCalls: string): Promise<number> {
  const runtime = createNodePtcRuntime({ poolSize: 1, limits: { maxSubCalls: callsPerProgram * 2 } })
  const differences: number[] = []
  for (let sample = 0; sample < overheadSamples + 3; sample++) {
    const base = await programNs(runtime, withoutCalls)
    const calls = await programNs(runtime, withCalls)
    if (sample >= 3) differences.push((calls - base) / callsPerProgram)
  }
  await runtime.close()
  return summarize(differences).medianNs
}

const pooled = summarize(await coldStart(2))
const unpooled = summarize(await coldStart(0))
const sequential = await perCallOverhead(
  `for (let i = 0; i < ${callsPerProgram}; i++) await tools.noop({ i })`,
  `for (let i = 0; i < ${callsPerProgram}; i++) await Promise.resolve({ i })`,
)
const parallel = await perCallOverhead(
  `await Promise.all(Array.from({ length: ${callsPerProgram} }, (_, i) => tools.noop({ i })))`,
  `await Promise.all(Array.from({ length: ${callsPerProgram} }, (_, i) => Promise.resolve({ i })))`,
)

/** The same sequential program through the real pipeline (validation, policy, scheduling, logging included). */
async function pipelineOverhead(): Promise<number> {
  const ptc = createNodePtcRuntime({ poolSize: 1, limits: { maxSubCalls: callsPerProgram * 2 } })
  const runtime = createToolRuntime({ mode: 'ptc', ptcRuntime: ptc })
  runtime.register(
    defineTool({ name: 'noop', description: 'Does nothing', parameters: { i: { type: 'integer' } }, execute: () => 1 }),
  )
  const timed = async (code: string) => {
    await ptc.warm()
    const start = process.hrtime.bigint()
    const result = await runtime.execute({ id: 'bench', name: 'run_code', arguments: { code, description: 'bench' } })
    if (!result.ok) throw new Error(result.error.message)
    return Number(process.hrtime.bigint() - start)
  }
  const differences: number[] = []
  for (let sample = 0; sample < overheadSamples + 3; sample++) {
    const base = await timed(`for (let i = 0; i < ${callsPerProgram}; i++) await Promise.resolve({ i })`)
    const calls = await timed(`for (let i = 0; i < ${callsPerProgram}; i++) await tools.noop({ i })`)
    if (sample >= 3) differences.push((calls - base) / callsPerProgram)
  }
  await ptc.close()
  return summarize(differences).medianNs
}
const throughPipeline = await pipelineOverhead()

const rows: (string | number)[][] = [
  [
    'cold start p50, pooled (dispatch → first statement)',
    formatNs(pooled.medianNs),
    formatNs(pooled.p90Ns),
    '≤ 5 ms',
    pooled.medianNs <= 5e6 ? 'yes' : 'NO',
  ],
  ['cold start p50, unpooled', formatNs(unpooled.medianNs), formatNs(unpooled.p90Ns), '-', '-'],
  ['sub-call overhead, sequential', formatNs(sequential), '', '≤ 50 µs', sequential <= 50_000 ? 'yes' : 'NO'],
  ['sub-call overhead, Promise.all', formatNs(parallel), '', '≤ 20 µs', parallel <= 20_000 ? 'yes' : 'NO'],
  ['sub-call, sequential, through the whole pipeline (for reference)', formatNs(throughPipeline), '', '-', '-'],
]
console.log(markdownTable(['measure', 'p50', 'p90', 'target', 'met'], rows))
if (rows.some((row) => row[4] === 'NO')) process.exitCode = 1
