import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runChildHost } from '../../../test/support/child-host.js'
import { type PostgresServer, startPostgresServer } from '../../../test/support/postgres-server.js'
import { hasSystemPart } from '../../../test/support/system-requirement.js'
import type { ProcessOptions, SettledSummary, StoreLocation } from './__fixtures__/approval-process.js'

/**
 * Deferred approvals across real processes: every step below is a `node` child process that opens the store itself
 * and builds its own runtime with the same tool (`__fixtures__/approval-process.ts`), then exits. Nothing is shared
 * in memory; the tool's body counts its runs in a file.
 */
const fixture = fileURLToPath(new URL('./__fixtures__/approval-process.ts', import.meta.url))

interface Place {
  readonly store: StoreLocation
  readonly runsFile: string
}

type ProcessTask = ProcessOptions extends infer Options
  ? Options extends ProcessOptions
    ? Omit<Options, 'store' | 'runsFile'>
    : never
  : never

interface DeferReport {
  readonly results: readonly SettledSummary[]
}
interface DecideReport {
  readonly rounds: readonly (readonly SettledSummary[])[]
}
interface ObserveReport {
  readonly pending: readonly string[]
  readonly approvals: readonly ({ state: string; outcome?: { ok: boolean } } | undefined)[]
  readonly logs: readonly (readonly string[])[]
}

const argumentOf = (place: Place, task: ProcessTask) => JSON.stringify({ ...task, ...place })

async function run<Report>(place: Place, task: ProcessTask): Promise<Report> {
  const ran = await runChildHost<Report>(fixture, [argumentOf(place, task)], { timeoutMs: 90_000 })
  if (ran.code !== 0 || ran.report === undefined) {
    throw new Error(`the ${task.task} process ended with ${ran.code ?? ran.signal}:\n${ran.stderr}`)
  }
  return ran.report
}

function start(place: Place, task: ProcessTask): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', fixture, argumentOf(place, task)], { stdio: 'ignore' })
}

function bodyRuns(place: Place): { pid: number; path: string }[] {
  if (!existsSync(place.runsFile)) return []
  return readFileSync(place.runsFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
}

const approvalIdsOf = (report: DeferReport): string[] =>
  report.results.map((result) => {
    if (result.status !== 'pending' || result.approvalId === undefined) throw new Error(JSON.stringify(result))
    return result.approvalId
  })

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The scenarios every store runs; `concurrent` is false for PGlite, whose data folder one process opens at a time. */
function describeAcrossProcesses(name: string, freshPlace: () => Promise<Place>, concurrent: boolean) {
  describe(`deferred approvals across processes on ${name}`, () => {
    it('defers in one process that exits, is decided in a second, and a third sees it settled', async () => {
      const place = await freshPlace()
      const [approvalId] = approvalIdsOf(await run<DeferReport>(place, { task: 'defer', paths: ['notes.txt'] }))
      expect(bodyRuns(place)).toEqual([])
      const decided = await run<DecideReport>(place, { task: 'decide', approvalIds: [approvalId!], approved: true })
      expect(decided.rounds).toEqual([[{ id: 'call-0', ok: true, value: 'deleted notes.txt' }]])
      const observed = await run<ObserveReport>(place, { task: 'observe', callIds: ['call-0'] })
      expect(observed.pending).toEqual([])
      expect(observed.approvals[0]).toMatchObject({ state: 'settled', outcome: { ok: true } })
      expect(observed.logs[0]).toEqual([
        'tool.call.started',
        'tool.call.pending',
        'tool.call.approval',
        'tool.call.settled',
      ])
      // A second decide, from yet another process, answers the recorded outcome and runs nothing.
      const again = await run<DecideReport>(place, { task: 'decide', approvalIds: [approvalId!], approved: false })
      expect(again.rounds).toEqual(decided.rounds)
      expect(bodyRuns(place)).toHaveLength(1)
    }, 240_000)

    it('settles a call whose decider was killed inside the body as INTERRUPTED, and never runs it twice', async () => {
      const place = await freshPlace()
      const [approvalId] = approvalIdsOf(await run<DeferReport>(place, { task: 'defer', paths: ['notes.txt'] }))
      const decider = start(place, {
        task: 'decide',
        approvalIds: [approvalId!],
        approved: true,
        approvalLeaseMs: 2_000,
        bodyMs: 600_000,
      })
      const died = new Promise((resolve) => decider.once('exit', (_code, signal) => resolve(signal)))
      try {
        await until(() => bodyRuns(place).length === 1, 90_000)
      } finally {
        decider.kill('SIGKILL')
      }
      expect(await died).toBe('SIGKILL')
      // The next decide waits out the dead claimer's lease, then settles the approval without running anything.
      const settled = await run<DecideReport>(place, { task: 'decide', approvalIds: [approvalId!], approved: true })
      expect(settled.rounds[0]).toEqual([
        {
          id: 'call-0',
          ok: false,
          code: 'INTERRUPTED',
          message: expect.stringMatching(/the process carrying out its approval stopped before it settled/),
        },
      ])
      const again = await run<DecideReport>(place, { task: 'decide', approvalIds: [approvalId!], approved: true })
      expect(again.rounds).toEqual(settled.rounds)
      expect(bodyRuns(place)).toHaveLength(1)
    }, 240_000)

    it('fails cleanly on a schema changed since, lets a guard added since deny, and denies an expired one', async () => {
      const place = await freshPlace()
      const [changed, guarded] = approvalIdsOf(
        await run<DeferReport>(place, { task: 'defer', paths: ['a-rather-long-name.txt', 'notes.txt'] }),
      )
      const [expired] = approvalIdsOf(
        await run<DeferReport>(place, { task: 'defer', paths: ['old.txt'], approvalTtlMs: 1 }),
      )
      const stricter = await run<DecideReport>(place, {
        task: 'decide',
        approvalIds: [changed!],
        approved: true,
        variant: 'stricter',
      })
      expect(stricter.rounds[0]).toEqual([
        { id: 'call-0', ok: false, code: 'INVALID_ARGUMENTS', message: expect.stringMatching(/path/) },
      ])
      const denied = await run<DecideReport>(place, {
        task: 'decide',
        approvalIds: [guarded!],
        approved: true,
        variant: 'guarded',
      })
      expect(denied.rounds[0]).toEqual([
        { id: 'call-1', ok: false, code: 'DENIED', message: 'deleting is off since the last deploy' },
      ])
      const late = await run<DecideReport>(place, { task: 'decide', approvalIds: [expired!], approved: true })
      expect(late.rounds[0]).toEqual([
        {
          id: 'call-0',
          ok: false,
          code: 'DENIED',
          message: expect.stringMatching(
            /^The call to delete_file was not approved: its approval expired at \d{4}-.+Z without a decision\.$/,
          ),
        },
      ])
      expect(bodyRuns(place)).toEqual([])
      const observed = await run<ObserveReport>(place, { task: 'observe', callIds: [] })
      expect(observed.pending).toEqual([])
    }, 240_000)

    it.runIf(concurrent)(
      'runs the body exactly 100 times when two processes decide the same 100 approvals at once',
      async () => {
        const place = await freshPlace()
        const paths = Array.from({ length: 100 }, (_, index) => `file-${index}.txt`)
        const approvalIds = approvalIdsOf(await run<DeferReport>(place, { task: 'defer', paths }))
        const decide = { task: 'decide', approvalIds, approved: true, rounds: 2 } as const
        const [first, second] = await Promise.all([run<DecideReport>(place, decide), run<DecideReport>(place, decide)])
        const runs = bodyRuns(place)
        expect(runs).toHaveLength(100)
        expect(new Set(runs.map((entry) => entry.path)).size).toBe(100)
        const expected = paths.map((path, index) => ({ id: `call-${index}`, ok: true, value: `deleted ${path}` }))
        // Both processes answer every approval with its one outcome, the second round from the record.
        for (const report of [first, second]) expect(report.rounds).toEqual([expected, expected])
      },
      240_000,
    )
  })
}

const folders: string[] = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

function freshFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'qilin-processes-'))
  folders.push(folder)
  return folder
}

describeAcrossProcesses(
  'PGlite (one data folder, opened by one process after another)',
  async () => {
    const folder = freshFolder()
    return { store: { kind: 'pglite', dataDir: join(folder, 'data') }, runsFile: join(folder, 'runs.jsonl') }
  },
  false,
)

const postgresql = hasSystemPart('postgresql', 'packages/store/src/cross-process.test.ts')

describe.skipIf(!postgresql)('on a real PostgreSQL server', () => {
  let server: PostgresServer
  let databases = 0
  beforeAll(async () => {
    server = await startPostgresServer()
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
  })
  describeAcrossProcesses(
    'PostgreSQL (one database, processes at once)',
    async () => {
      const connectionString = await server.createDatabase(`processes_${++databases}`)
      return { store: { kind: 'postgres', connectionString }, runsFile: join(freshFolder(), 'runs.jsonl') }
    },
    true,
  )
})
