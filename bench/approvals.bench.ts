/**
 * Deferred approvals, per store: what `decide` adds over running the same call directly (goal: at most 5 ms at the
 * median), and listing 10,000 pending approvals (goal: under 50 ms). `direct` is the same tool on a runtime that
 * waits, approved in memory, with the same store as its session log, so both columns write the same log.
 *
 * Stores are pluggable: `storeFactories` below lists each row's factory (a fresh, empty store per call).
 * `@qilin-tools/store` adds its PostgreSQL (loopback) and PGlite rows there.
 */

import { PGlite } from '@electric-sql/pglite'
import { createPgliteStore, createPostgresStore } from '@qilin-tools/store'
import { openSqlStore } from '@qilin-tools/store/internal/open-store.js'
import { pglitePort } from '@qilin-tools/store/internal/pglite-port.js'
import { postgresPort } from '@qilin-tools/store/internal/postgres-port.js'
import { type SqlPort, WHOLE_LISTING_BYTES } from '@qilin-tools/store/internal/sql-port.js'
import { createSqlStore } from '@qilin-tools/store/internal/sql-store.js'
import pg from 'pg'
import type { ToolStore } from 'qilin-tools/internal/approvals/approval-store.js'
import { createMemoryStore } from 'qilin-tools/internal/approvals/memory-store.js'
import { pendingApproval } from 'qilin-tools/internal/approvals/store-conformance.js'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import type { DeferredToolResult } from 'qilin-tools/internal/pipeline/call.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import { type PostgresServer, startPostgresServer } from '../test/support/postgres-server.js'
import { postgresBinaries } from '../test/support/system-requirement.js'
import { formatNs, markdownTable, summarize } from './measure.js'

/** One row per store: a name and how to open a fresh, empty one. */
export const storeFactories: { readonly name: string; readonly open: () => Promise<ToolStore> }[] = [
  { name: 'memory', open: async () => createMemoryStore() },
  { name: 'PGlite (memory://)', open: () => createPgliteStore() },
]

// A throwaway server on loopback, started as the store's tests start it (test/support/postgres-server.ts: fsync
// off); each open gets a fresh database of its own.
let server: PostgresServer | undefined
/** Per database store: a fresh store and a second connection to the same database, for the rows that compare reads. */
const databases: { readonly name: string; readonly open: () => Promise<{ store: ToolStore; port: SqlPort }> }[] = [
  {
    name: 'PGlite (memory://)',
    open: async () => {
      const database = await PGlite.create('memory://')
      const port = pglitePort(database)
      return { store: await openSqlStore({ ...port, close: async () => {} }, {}), port }
    },
  },
]
if (postgresBinaries() === undefined) {
  console.log('PostgreSQL row skipped: PostgreSQL is not installed (apt-get install postgresql)\n')
} else {
  const started = await startPostgresServer()
  server = started
  let created = 0
  storeFactories.push({
    name: 'PostgreSQL (loopback)',
    open: async () => createPostgresStore({ connectionString: await started.createDatabase(`bench_${++created}`) }),
  })
  databases.push({
    name: 'PostgreSQL (loopback)',
    open: async () => {
      const connectionString = await started.createDatabase(`shapes_${++created}`)
      const store = await createPostgresStore({ connectionString })
      const pool = new pg.Pool({ connectionString, max: 1 })
      // As the store's own pool does: a connection the server drops at shutdown must not end the bench.
      pool.on('error', () => {})
      return { store, port: postgresPort(pool, true) }
    },
  })
}

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

const now = 1_800_000_000_000

async function seed(store: ToolStore) {
  for (let index = 0; index < listed; index++) {
    await store.putApproval(pendingApproval({ createdAt: now - listed + index }))
  }
}

async function listing(open: () => Promise<ToolStore>) {
  const store = await open()
  const runtime = createToolRuntime({ approvals: 'defer', store, clock: () => now })
  await seed(store)
  const times: number[] = []
  const cpuNs: number[] = []
  for (let round = 0; round < listings + 2; round++) {
    const cpu = process.cpuUsage()
    const start = process.hrtime.bigint()
    const pending = await runtime.pendingApprovals()
    const elapsed = Number(process.hrtime.bigint() - start)
    const used = process.cpuUsage(cpu)
    if (pending.length !== listed) throw new Error(`listed ${pending.length} of ${listed}`)
    if (round < 2) continue
    times.push(elapsed)
    cpuNs.push((used.user + used.system) * 1_000)
  }
  await store.close()
  return { wall: summarize(times), cpu: summarize(cpuNs) }
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
  listingRows.push([
    name,
    formatNs(list.wall.medianNs),
    formatNs(list.wall.p90Ns),
    formatNs(list.cpu.medianNs),
    list.wall.medianNs < 50_000_000 ? 'yes' : 'NO',
  ])
}

console.log(`decide against the same call run directly (${calls} calls each, interleaved; wall time)\n`)
console.log(
  markdownTable(['store', 'direct p50', 'decide p50', 'added p50', 'decide p90', 'goal ≤ 5 ms added'], overheadRows),
)
console.log(`\npendingApprovals() over ${listed.toLocaleString('en')} pending approvals (${listings} listings)\n`)
console.log(markdownTable(['store', 'p50', 'p90', 'CPU p50 (this process)', 'goal < 50 ms'], listingRows))

/**
 * The listing both ways `SqlPort.wholeListingBytes` chooses between, over one seeded database, alternating so load
 * hits both alike: whole as one text, and a row per record (how every listing was read up to eb8ae5e, pg then in a
 * column per field). First as a fresh database is (no planner statistics: PGlite
 * stays so, it runs no autovacuum), then after `ANALYZE`, as PostgreSQL's autovacuum leaves a table within a minute
 * of 10,000 inserts.
 */
async function reads(open: () => Promise<{ store: ToolStore; port: SqlPort }>) {
  const { store, port } = await open()
  await seed(store)
  const storeReads = port.wholeListingBytes > 0 ? 'one text' : 'a row per record'
  const ways = {
    'one text': createSqlStore({ ...port, wholeListingBytes: WHOLE_LISTING_BYTES }, {}),
    'a row per record': createSqlStore({ ...port, wholeListingBytes: 0 }, {}),
  }
  const rows: (string | number)[][] = []
  for (const statistics of ['none', 'ANALYZE'] as const) {
    if (statistics === 'ANALYZE') await port.query('ANALYZE qilin_approvals')
    const samples = new Map(Object.keys(ways).map((way) => [way, { wall: [] as number[], cpu: [] as number[] }]))
    for (let round = 0; round < listings + 2; round++) {
      for (const [way, reader] of Object.entries(ways)) {
        const cpu = process.cpuUsage()
        const start = process.hrtime.bigint()
        const records = await reader.listApprovals({ state: 'pending', expiresAfter: now })
        const elapsed = Number(process.hrtime.bigint() - start)
        const used = process.cpuUsage(cpu)
        if (records.length !== listed) throw new Error(`${way} listed ${records.length} of ${listed}`)
        if (round < 2) continue
        samples.get(way)!.wall.push(elapsed)
        samples.get(way)!.cpu.push((used.user + used.system) * 1_000)
      }
    }
    for (const [way, { wall, cpu }] of samples) {
      const label = way === storeReads ? `${way} (the store reads so)` : way
      rows.push([statistics, label, formatNs(summarize(wall).medianNs), formatNs(summarize(cpu).medianNs)])
    }
  }
  await port.close()
  await store.close()
  return rows
}

const readRows: (string | number)[][] = []
for (const { name, open } of databases) {
  for (const row of await reads(open)) readRows.push([name, ...row])
}
console.log(
  `\nthe same ${listed.toLocaleString('en')} pending approvals listed as one text and a row per record (${listings} listings each, alternating)\n`,
)
console.log(markdownTable(['store', 'statistics', 'read', 'wall p50', 'CPU p50 (this process)'], readRows))
await server?.stop()
