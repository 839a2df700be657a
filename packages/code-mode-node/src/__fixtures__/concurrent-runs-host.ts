import { fakeRunRequest } from '@qilin-tools/code-mode/internal/__fixtures__/fake-run-request.js'
import { createNodePtcRuntime } from '../create-node-ptc-runtime.js'

/** What the host measured about itself while twelve memory-hungry programs ran under its cap. */
export interface ConcurrentRunsReport {
  readonly baselineMb: number
  readonly peakMb: number
  readonly completed: number
  readonly mostRunning: number
}

const maxConcurrentRuns = Number(process.argv[2])
const heapMegabytes = Number(process.argv[3])
const runtime = createNodePtcRuntime({ maxConcurrentRuns, poolSize: 0, limits: { heapMegabytes } })
const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024))

await runtime.run(fakeRunRequest(`return 'warm'`))
const baselineMb = megabytes(process.memoryUsage.rss())
let peakMb = baselineMb
const sampler = setInterval(() => {
  peakMb = Math.max(peakMb, megabytes(process.memoryUsage.rss()))
}, 5)

let running = 0
let mostRunning = 0
const tools = {
  begin: () => {
    running += 1
    mostRunning = Math.max(mostRunning, running)
    return running
  },
  finish: () => {
    running -= 1
    return running
  },
}
// Each program holds most of its heap while it waits, so every running program's memory is in the host at once.
const code = `const keep = []
  for (let i = 0; i < ${heapMegabytes - 24}; i++) keep.push(new Array(131072).fill(i + 0.5))
  await tools.begin({})
  await new Promise((resolve) => setTimeout(resolve, 150))
  await tools.finish({})
  return keep.length`
const outcomes = await Promise.all(
  Array.from({ length: 12 }, () => runtime.run(fakeRunRequest(code, tools, { timeoutMs: 60_000 }))),
)
clearInterval(sampler)
await runtime.close()
const report: ConcurrentRunsReport = {
  baselineMb,
  peakMb,
  completed: outcomes.filter((outcome) => outcome.ok).length,
  mostRunning,
}
console.log(JSON.stringify(report))
