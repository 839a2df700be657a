/**
 * One agent-server process for the cross-process approval tests: it opens its own store (a PGlite data folder or a
 * PostgreSQL database), builds its own runtime with the same `delete_file` tool, does one task, prints one JSON line
 * and exits. The tool's body appends a line to `runsFile` each time it runs, so the test counts runs across every
 * process from the file, not from anyone's memory.
 *
 * `node --import tsx approval-process.ts '<json task>'`
 */
import { appendFileSync } from 'node:fs'
import { createToolRuntime, type DeferredToolResult, defineTool, type ToolStore } from 'qilin-tools'
import { createPgliteStore, createPostgresStore } from '../index.js'

export type StoreLocation =
  | { readonly kind: 'pglite'; readonly dataDir: string }
  | { readonly kind: 'postgres'; readonly connectionString: string }

/** The tool as this process declares it: as deferred, stricter than when deferred, or with a guard added since. */
export type ToolVariant = 'original' | 'stricter' | 'guarded'

export type ProcessTask =
  | { readonly task: 'defer'; readonly paths: readonly string[]; readonly approvalTtlMs?: number }
  | {
      readonly task: 'decide'
      readonly approvalIds: readonly string[]
      readonly approved: boolean
      readonly reason?: string
      /** Decide each id this many times (all at once within a round, one round after another). @default 1 */
      readonly rounds?: number
      readonly approvalLeaseMs?: number
    }
  | { readonly task: 'observe'; readonly callIds: readonly string[] }

export type ProcessOptions = ProcessTask & {
  readonly store: StoreLocation
  readonly runsFile: string
  readonly variant?: ToolVariant
  /** Before its body returns, the tool waits this long (a process killed inside the body never returns). */
  readonly bodyMs?: number
}

/** A result as the test reads it (JSON). */
export interface SettledSummary {
  readonly id: string
  readonly ok: boolean
  readonly value?: unknown
  readonly code?: string
  readonly message?: string
  readonly status?: string
  readonly approvalId?: string
}

function summary(result: DeferredToolResult): SettledSummary {
  if (result.ok) return { id: result.id, ok: true, value: result.value }
  if (result.status === 'pending') return { id: result.id, ok: false, status: 'pending', approvalId: result.approvalId }
  return { id: result.id, ok: false, code: result.error.code, message: result.error.message }
}

function openStore(location: StoreLocation): Promise<ToolStore> {
  return location.kind === 'pglite'
    ? createPgliteStore({ dataDir: location.dataDir })
    : createPostgresStore({ connectionString: location.connectionString })
}

async function main(options: ProcessOptions): Promise<unknown> {
  const store = await openStore(options.store)
  try {
    const runtime = createToolRuntime({
      approvals: 'defer',
      store,
      ...(options.task === 'defer' && options.approvalTtlMs !== undefined && { approvalTtlMs: options.approvalTtlMs }),
      ...(options.task === 'decide' &&
        options.approvalLeaseMs !== undefined && { approvalLeaseMs: options.approvalLeaseMs }),
    })
    runtime.register(
      defineTool({
        name: 'delete_file',
        description: 'Delete a file.',
        parameters: { path: { type: 'string', required: true, maxLength: options.variant === 'stricter' ? 3 : 100 } },
        needsApproval: true,
        execute: async ({ path }) => {
          appendFileSync(options.runsFile, `${JSON.stringify({ pid: process.pid, path })}\n`)
          if (options.bodyMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.bodyMs))
          return `deleted ${path}`
        },
      }),
    )
    if (options.variant === 'guarded') runtime.guard(() => 'deleting is off since the last deploy')

    if (options.task === 'defer') {
      const results = []
      for (const [index, path] of options.paths.entries()) {
        results.push(summary(await runtime.execute({ id: `call-${index}`, name: 'delete_file', arguments: { path } })))
      }
      return { results }
    }
    if (options.task === 'decide') {
      const rounds: SettledSummary[][] = []
      for (let round = 0; round < (options.rounds ?? 1); round++) {
        const answer = {
          approved: options.approved,
          ...(options.reason === undefined ? {} : { reason: options.reason }),
        }
        const settled = await Promise.all(options.approvalIds.map((id) => runtime.decide(id, answer)))
        rounds.push(settled.map(summary))
      }
      return { rounds }
    }
    const pending = await runtime.pendingApprovals()
    const settled = await store.listApprovals({ state: 'settled' })
    const approvals = options.callIds.map((id) => settled.find((record) => record.callId === id))
    const logs = await Promise.all(
      options.callIds.map(async (id) => (await store.readSessionLog({ id })).map((record) => record.type)),
    )
    return { pending: pending.map((approval) => approval.approvalId), approvals, logs }
  } finally {
    await store.close()
  }
}

const options = JSON.parse(process.argv[2] ?? '{}') as ProcessOptions
process.stdout.write(`${JSON.stringify(await main(options))}\n`)
