/**
 * Python code mode: cold start (fully confined and unconfined, spawned per run and pooled), host-call overhead
 * (sequential and under asyncio.gather, through the bare bridge and through the whole pipeline), and the
 * o200k token cost of the Python SDK block against the native JSON schemas of every shared MCP tool list.
 */
import { cpus, loadavg } from 'node:os'
import { fakeRunRequest } from '@qilin-tools/code-mode/internal/__fixtures__/fake-run-request.js'
import { loadMcpTools, mcpToolsetNames } from '@qilin-tools/code-mode/internal/__fixtures__/mcp-toolsets.js'
import { defaultPtcLimits } from '@qilin-tools/code-mode/internal/ptc-limits.js'
import type { PtcRunOutcome } from '@qilin-tools/code-mode/internal/ptc-port.js'
import {
  createPythonPtcRuntime,
  type PythonPtcRuntimeOptions,
} from '@qilin-tools/code-mode-python/internal/create-python-ptc-runtime.js'
import { renderPythonSdk } from '@qilin-tools/code-mode-python/internal/render-python-sdk.js'
import { defaultPoolSize } from '@qilin-tools/code-mode-python/internal/runner-pool.js'
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import type { JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { formatNs, markdownTable, summarize } from './measure.js'

const failures: string[] = []

function tokenTable(): string {
  const rows: (string | number)[][] = []
  for (const name of mcpToolsetNames()) {
    const tools = loadMcpTools(name)
    // `$schema` is dropped from the native side too, so the comparison does not flatter the SDK.
    const native = tools
      .map((tool) => {
        const { $schema: _dialect, ...parameters } = tool.inputSchema
        return JSON.stringify({ name: tool.name, description: tool.description ?? '', parameters })
      })
      .join('\n')
    const views = tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      parameters: tool.inputSchema,
      ...(tool.outputSchema === undefined ? {} : { output: tool.outputSchema }),
    }))
    const nativeTokens = encode(native).length
    const sdkTokens = encode(renderPythonSdk(views)).length
    if (sdkTokens > nativeTokens) failures.push(`${name}: Python SDK ${sdkTokens} tokens > native ${nativeTokens}`)
    const met = sdkTokens <= nativeTokens ? 'yes' : 'NO'
    rows.push([name, tools.length, nativeTokens, sdkTokens, (sdkTokens / nativeTokens).toFixed(2), met])
  }
  return markdownTable(
    ['list', 'tools', 'native JSON', 'Python SDK (with result types)', 'SDK / native', '≤ native'],
    rows,
  )
}

async function coldStart(options: PythonPtcRuntimeOptions, samples: number): Promise<number[]> {
  const runtime = createPythonPtcRuntime(options)
  const times: number[] = []
  try {
    for (let sample = 0; sample < samples + 3; sample++) {
      await runtime.warm()
      const start = process.hrtime.bigint()
      const outcome = await runtime.run(fakeRunRequest('return 1'))
      const elapsed = Number(process.hrtime.bigint() - start)
      if (!outcome.ok) throw new Error(`cold start run failed: ${JSON.stringify(outcome)}`)
      if (sample >= 3) times.push(elapsed)
    }
  } finally {
    await runtime.close()
  }
  return times
}

/**
 * Dispatch → result of `return 1` for each of `concurrent` runs started at once, over `rounds` rounds, the pool
 * warmed between rounds (as it is between an agent's turns).
 */
async function concurrentStarts(options: PythonPtcRuntimeOptions, concurrent: number, rounds: number) {
  const runtime = createPythonPtcRuntime({ maxConcurrentRuns: concurrent, ...options })
  const times: number[] = []
  try {
    for (let round = 0; round < rounds + 1; round++) {
      await runtime.warm()
      const start = process.hrtime.bigint()
      const elapsed = await Promise.all(
        Array.from({ length: concurrent }, async () => {
          const outcome = await runtime.run(fakeRunRequest('return 1'))
          if (!outcome.ok) throw new Error(`concurrent run failed: ${JSON.stringify(outcome)}`)
          return Number(process.hrtime.bigint() - start)
        }),
      )
      if (round > 0) times.push(...elapsed)
    }
  } finally {
    await runtime.close()
  }
  return times
}

/** Nanoseconds per call, timed inside the program so process start-up is not in it. */
async function perCall(
  run: (code: string) => Promise<PtcRunOutcome>,
  style: 'sequential' | 'gather',
  calls: number,
): Promise<number> {
  const loop =
    style === 'sequential'
      ? `for _ in range(${calls}):\n    await tools.noop()`
      : `await asyncio.gather(*(tools.noop() for _ in range(${calls})))`
  const code = `import time\nstart = time.perf_counter_ns()\n${loop}\nreturn (time.perf_counter_ns() - start) / ${calls}`
  const outcome = await run(code)
  if (!outcome.ok) throw new Error(`host-call run failed: ${JSON.stringify(outcome)}`)
  return outcome.value as number
}

async function hostCalls(): Promise<(string | number)[][]> {
  const runtime = createPythonPtcRuntime({ poolSize: 1, limits: { maxSubCalls: 100_000 } })
  const bridge = (code: string) => runtime.run(fakeRunRequest(code, { noop: (): JsonValue => null }))
  const tools = createToolRuntime({ mode: 'ptc', ptcRuntime: runtime, maxParallelSubCalls: 64 })
  tools.register(
    defineTool({
      name: 'noop',
      description: 'Does nothing',
      parameters: {},
      executionMode: 'parallel',
      execute: () => null,
    }),
  )
  let id = 0
  const pipeline = async (code: string): Promise<PtcRunOutcome> => {
    const result = await tools.execute({
      id: `bench-${id++}`,
      name: 'run_code',
      arguments: { code, description: 'bench' },
    })
    return result.ok
      ? { ok: true, content: result.content, value: result.value ?? null, metadata: { subCalls: 0, bytesKeptOut: 0 } }
      : {
          ok: false,
          error: result.error,
          metadata: { subCalls: 0, bytesKeptOut: 0 },
        }
  }
  const rows: (string | number)[][] = []
  const targets = { sequential: 100_000, gather: 50_000 }
  try {
    for (const [label, run] of [
      ['bridge (fake callTool)', bridge],
      ['whole pipeline (createToolRuntime)', pipeline],
    ] as const) {
      for (const style of ['sequential', 'gather'] as const) {
        const samples: number[] = []
        for (let round = 0; round < 7; round++) samples.push(await perCall(run, style, 2_000))
        const { medianNs, p90Ns } = summarize(samples)
        const target = targets[style]
        const met = label.startsWith('bridge') ? (medianNs <= target ? 'yes' : 'NO') : '(info)'
        if (met === 'NO') failures.push(`${label} ${style}: ${formatNs(medianNs)} per call > ${formatNs(target)}`)
        rows.push([label, style, formatNs(medianNs), formatNs(p90Ns), `≤ ${formatNs(target)}`, met])
      }
    }
  } finally {
    await runtime.close()
  }
  return rows
}

console.log('### Python SDK tokens (o200k)\n')
console.log(tokenTable())

const load = loadavg().map((value) => value.toFixed(1))
console.log(
  `\n### Cold start: run_code dispatch to result of \`return 1\` (load average ${load.join(' ')} on ${cpus().length} CPUs)\n`,
)
const startRows: (string | number)[][] = []
for (const [label, options, target] of [
  ['fully confined, spawned per run', { poolSize: 0 }, 60_000_000],
  ['fully confined, pooled (1 ready runner)', { poolSize: 1 }, undefined],
  ['unconfined, spawned per run', { poolSize: 0, confinement: 'none' }, undefined],
  ['unconfined, pooled', { poolSize: 1, confinement: 'none' }, undefined],
] as const) {
  const { medianNs, p90Ns, samples } = summarize(await coldStart(options, 30))
  const met = target === undefined ? '(info)' : medianNs <= target ? 'yes' : 'NO'
  if (met === 'NO') failures.push(`${label}: p50 ${formatNs(medianNs)} > ${formatNs(target ?? 0)}`)
  startRows.push([
    label,
    formatNs(medianNs),
    formatNs(p90Ns),
    samples,
    target === undefined ? '' : `≤ ${formatNs(target)}`,
    met,
  ])
}
console.log(markdownTable(['runner', 'p50', 'p90', 'samples', 'target', 'met'], startRows))

const concurrentRuns = 8
// As the runtime sizes it for these runs: admission lets all eight run at once, each with its default memory.
const runMemoryBytes = (defaultPtcLimits.heapMegabytes + 256 + 64) * 1024 * 1024
const defaultPoolSizeHere = defaultPoolSize({
  maxConcurrentRuns: concurrentRuns,
  maxSandboxMemoryBytes: concurrentRuns * runMemoryBytes,
  runMemoryBytes,
})
console.log(
  `\n### ${concurrentRuns} fully confined runs at once: dispatch to each result of \`return 1\` (load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')})\n`,
)
const concurrentRows: (string | number)[][] = []
for (const [label, options, target] of [
  [`pool sized to the machine (the default: ${defaultPoolSizeHere} here)`, {}, 60_000_000],
  [`pool of ${concurrentRuns} (poolSize: ${concurrentRuns})`, { poolSize: concurrentRuns }, undefined],
  ['pool of 2 (one per core here, the old default)', { poolSize: 2 }, undefined],
  ['pool of 1', { poolSize: 1 }, undefined],
] as const) {
  const { medianNs, p90Ns, samples } = summarize(await concurrentStarts(options, concurrentRuns, 10))
  const met = target === undefined ? '(info)' : medianNs <= target ? 'yes' : 'NO'
  if (met === 'NO')
    failures.push(`${concurrentRuns} at once, ${label}: p50 ${formatNs(medianNs)} > ${formatNs(target ?? 0)}`)
  concurrentRows.push([
    label,
    formatNs(medianNs),
    formatNs(p90Ns),
    samples,
    target === undefined ? '' : `≤ ${formatNs(target)}`,
    met,
  ])
}
console.log(markdownTable(['pool', 'p50', 'p90', 'samples', 'target', 'met'], concurrentRows))

console.log('\n### Host-call overhead per call (2,000 calls of a no-op tool, timed inside the program)\n')
console.log(markdownTable(['path', 'style', 'p50', 'p90', 'target', 'met'], await hostCalls()))

if (failures.length > 0) {
  console.log(`\nTargets missed:\n${failures.map((failure) => `- ${failure}`).join('\n')}`)
  process.exitCode = 1
}
