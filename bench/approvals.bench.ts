/**
 * Deferred approvals, per store: what `decide` adds over running the same call directly (goal: at most 5 ms at the
 * median), and listing 10,000 pending approvals (goal: under 50 ms). `direct` is the same tool on a runtime that
 * waits, approved in memory, with the same store as its session log, so both columns write the same log.
 *
 * Stores are pluggable: `storeFactories` below lists each row's factory (a fresh, empty store per call).
 * `@qilin-tools/store` adds its PostgreSQL (loopback) and PGlite rows there.
 */

import type { ToolStore } from 'qilin-tools/internal/approvals/approval-store.js'
import { createMemoryStore } from 'qilin-tools/internal/approvals/memory-store.js'
import { pendingApproval } from 'qilin-tools/internal/approvals/store-conformance.js'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import type { DeferredToolResult } from 'qilin-tools/internal/pipeline/call.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { formatNs, markdownTable, summarize } from './measure.js'

/** One row per store: a name and how to open a fresh, empty one. */
export const storeFactories: readonly { readonly name: string; readonly open: () => Promise<ToolStore> }[] = [
  { name: 'memory', open: async () => createMemoryStore() },
]

const calls = 300
const listed = 10_000
const listings = 20

const add = defineTool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: { a: { type: 'number', required: true }, b: { type: 'number', required: true } },
  needsApproval: true,
  execute: ({ a, b }) => a + b,
})

function approvalIdOf(result: DeferredToolResult): string {
  if (result.status !== 'pending') throw new Error(`expected a pending call, got ${JSON.stringify(result)}`)
  return result.approvalId
}

/** Direct and decided calls interleaved, so a burst of load on the shared machine hits both alike. */
async function decideOverhead(open: () => Promise<ToolStore>) {
  const directStore = await open()
  const deferStore = await open()
  const direct = createToolRuntime({ store: directStore, approve: () => true })
  const deferring = createToolRuntime({ approvals: 'defer', store: deferStore })
  direct.register(add)
  deferring.register(add)
  const directNs: number[] = []
  const decideNs: number[] = []
  for (let index = 0; index < calls + 30; index++) {
    const call = { id: `c${index}`, name: 'add', arguments: '{"a":2,"b":3}' }
    let start = process.hrtime.bigint()
    const ran = await direct.execute(call)
    const directTime = Number(process.hrtime.bigint() - start)
    const approvalId = approvalIdOf(await deferring.execute(call))
    start = process.hrtime.bigint()
    const decided = await deferring.decide(approvalId, { approved: true })
    const decideTime = Number(process.hrtime.bigint() - start)
    if (!ran.ok || !decided.ok) throw new Error('a benchmark call failed')
    // The first 30 warm up.
    if (index < 30) continue
    directNs.push(directTime)
    decideNs.push(decideTime)
  }
  await directStore.close()
  await deferStore.close()
  return { direct: summarize(directNs), decide: summarize(decideNs) }
}

async function listing(open: () => Promise<ToolStore>) {
  const store = await open()
  const runtime = createToolRuntime({ approvals: 'defer', store, clock: () => 1_800_000_000_000 })
  for (let index = 0; index < listed; index++) {
    await store.putApproval(pendingApproval({ createdAt: 1_800_000_000_000 - listed + index }))
  }
  const times: number[] = []
  for (let round = 0; round < listings + 2; round++) {
    const start = process.hrtime.bigint()
    const pending = await runtime.pendingApprovals()
    const elapsed = Number(process.hrtime.bigint() - start)
    if (pending.length !== listed) throw new Error(`listed ${pending.length} of ${listed}`)
    if (round >= 2) times.push(elapsed)
  }
  await store.close()
  return summarize(times)
}

const overheadRows: (string | number)[][] = []
const listingRows: (string | number)[][] = []
for (const { name, open } of storeFactories) {
  const { direct, decide } = await decideOverhead(open)
  const added = decide.medianNs - direct.medianNs
  overheadRows.push([
    name,
    formatNs(direct.medianNs),
    formatNs(decide.medianNs),
    formatNs(added),
    formatNs(decide.p90Ns),
    added <= 5_000_000 ? 'yes' : 'NO',
  ])
  const list = await listing(open)
  listingRows.push([name, formatNs(list.medianNs), formatNs(list.p90Ns), list.medianNs < 50_000_000 ? 'yes' : 'NO'])
}

console.log(`decide against the same call run directly (${calls} calls each, interleaved; wall time)\n`)
console.log(
  markdownTable(['store', 'direct p50', 'decide p50', 'added p50', 'decide p90', 'goal ≤ 5 ms added'], overheadRows),
)
console.log(`\npendingApprovals() over ${listed.toLocaleString('en')} pending approvals (${listings} listings)\n`)
console.log(markdownTable(['store', 'p50', 'p90', 'goal < 50 ms'], listingRows))
