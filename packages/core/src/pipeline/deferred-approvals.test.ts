import { describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../../../test/support/settled-result.js'
import type { ToolStore } from '../approvals/approval-store.js'
import { createMemoryStore } from '../approvals/memory-store.js'
import { defineTool } from '../definition/define-tool.js'
import type { DeferredToolResult, ToolPending } from './call.js'
import { createToolRuntime } from './create-tool-runtime.js'
import type { ResultEvent } from './pipeline-events.js'
import { isToolRuntimeConfigError } from './runtime-config.js'

/** A tool that needs approval and counts how often its body ran. */
function deleteFile(counter: { runs: number }, maxLength = 100) {
  return defineTool({
    name: 'delete_file',
    description: 'Delete a file.',
    parameters: { path: { type: 'string', required: true, maxLength } },
    needsApproval: true,
    execute: ({ path }) => {
      counter.runs++
      return `deleted ${path}`
    },
  })
}

const readFile = defineTool({
  name: 'read_file',
  description: 'Read a file.',
  parameters: { path: { type: 'string', required: true } },
  annotations: { readOnlyHint: true },
  execute: ({ path }) => `contents of ${path}`,
})

function deferring(store: ToolStore = createMemoryStore(), clock?: () => number) {
  return createToolRuntime({ approvals: 'defer', store, ...(clock === undefined ? {} : { clock }) })
}

function expectPending(result: DeferredToolResult): ToolPending {
  if (result.status !== 'pending') throw new Error(`expected a pending result, got ${JSON.stringify(result)}`)
  return result
}

const deleteCall = (id = 'call-1', path = 'notes.txt') => ({ id, name: 'delete_file', arguments: { path } })

describe("approvals: 'defer'", () => {
  it('answers pending at once, runs nothing, and keeps the approval in the store', async () => {
    const store = createMemoryStore()
    const runtime = deferring(store, () => 1_000)
    const counter = { runs: 0 }
    runtime.register(deleteFile(counter))
    const pending = expectPending(await runtime.execute(deleteCall()))
    expect(counter.runs).toBe(0)
    expect(pending).toMatchObject({
      id: 'call-1',
      name: 'delete_file',
      ok: false,
      status: 'pending',
      approval: {
        toolName: 'delete_file',
        arguments: { path: 'notes.txt' },
        reasons: ['delete_file needs approval before it runs.'],
        expiresAt: 1_000 + 86_400_000,
      },
    })
    expect(Object.isFrozen(pending.approval.arguments)).toBe(true)
    expect(pending.content).toMatchInlineSnapshot(`
      [
        {
          "text": "The call to delete_file is waiting for a person to approve it and has not run yet. Its result will be sent when they decide; do not call it again meanwhile.",
          "type": "text",
        },
      ]
    `)
    expect(await store.getApproval(pending.approvalId)).toMatchObject({
      approvalId: pending.approvalId,
      callId: 'call-1',
      state: 'pending',
      createdAt: 1_000,
    })
    expect((await store.readSessionLog({ id: 'call-1' })).map((record) => record.type)).toEqual([
      'tool.call.started',
      'tool.call.pending',
    ])
    expect(await runtime.pendingApprovals()).toHaveLength(1)
  })

  it('leaves the siblings of a deferred call in executeAll alone, the pending result in its place', async () => {
    const runtime = deferring()
    const counter = { runs: 0 }
    runtime.register(deleteFile(counter))
    runtime.register(readFile)
    const results = await runtime.executeAll([
      { id: 'r1', name: 'read_file', arguments: { path: 'a' } },
      deleteCall('d1'),
      { id: 'r2', name: 'read_file', arguments: { path: 'b' } },
    ])
    expect(results.map((result) => [result.id, result.status ?? (result.ok ? 'ok' : 'failed')])).toEqual([
      ['r1', 'ok'],
      ['d1', 'pending'],
      ['r2', 'ok'],
    ])
    expect(expectSuccess(results[2]).value).toBe('contents of b')
  })

  it('runs the body once when approved, and records the approval and the result under the call id', async () => {
    const store = createMemoryStore()
    const runtime = deferring(store)
    const counter = { runs: 0 }
    runtime.register(deleteFile(counter))
    const observed: ResultEvent[] = []
    runtime.on('tools/result', (event) => {
      observed.push(event)
    })
    const pending = expectPending(await runtime.execute(deleteCall()))
    expect(observed).toEqual([])
    const result = await runtime.decide(pending.approvalId, { approved: true, decidedBy: 'ana' })
    expect(expectSuccess(result).value).toBe('deleted notes.txt')
    expect(result.id).toBe('call-1')
    expect(counter.runs).toBe(1)
    expect(observed.map((event) => event.result)).toEqual([result])
    const log = await store.readSessionLog({ id: 'call-1' })
    expect(log.map((record) => record.type)).toEqual([
      'tool.call.started',
      'tool.call.pending',
      'tool.call.approval',
      'tool.call.settled',
    ])
    expect(log[2]).toMatchObject({ verdict: 'approved', decidedBy: 'ana' })
    expect(await store.getApproval(pending.approvalId)).toMatchObject({
      state: 'settled',
      outcome: { ok: true, value: 'deleted notes.txt' },
    })
    expect(await runtime.pendingApprovals()).toEqual([])
  })

  it('answers a second decide with the recorded outcome and never runs the body again', async () => {
    const runtime = deferring()
    const counter = { runs: 0 }
    runtime.register(deleteFile(counter))
    const pending = expectPending(await runtime.execute(deleteCall()))
    const first = await runtime.decide(pending.approvalId, { approved: true })
    const second = await runtime.decide(pending.approvalId, { approved: false, reason: 'too late' })
    expect(second).toEqual(first)
    expect(counter.runs).toBe(1)
  })

  it('runs the body once for 50 concurrent decides, and all of them answer the same result', async () => {
    const runtime = deferring()
    const counter = { runs: 0 }
    runtime.register(
      defineTool({
        name: 'delete_file',
        description: 'Delete a file slowly.',
        parameters: { path: { type: 'string', required: true } },
        needsApproval: true,
        execute: async ({ path }) => {
          counter.runs++
          await new Promise((resolve) => setTimeout(resolve, 30))
          return `deleted ${path}`
        },
      }),
    )
    const pending = expectPending(await runtime.execute(deleteCall()))
    const results = await Promise.all(
      Array.from({ length: 50 }, () => runtime.decide(pending.approvalId, { approved: true })),
    )
    expect(counter.runs).toBe(1)
    for (const result of results) expect(expectSuccess(result).value).toBe('deleted notes.txt')
  })

  it('settles a denial as DENIED with the reason, without running the body', async () => {
    const runtime = deferring()
    const counter = { runs: 0 }
    runtime.register(deleteFile(counter))
    const pending = expectPending(await runtime.execute(deleteCall()))
    const result = await runtime.decide(pending.approvalId, { approved: false, reason: 'keep my notes' })
    expect(expectFailure(result).error).toEqual({ code: 'DENIED', message: 'keep my notes' })
    expect(result.content).toEqual([{ type: 'text', text: 'Error: keep my notes' }])
    expect(counter.runs).toBe(0)
  })

  it('fails as INVALID_ARGUMENTS when the tool was replaced with a stricter schema meanwhile', async () => {
    const runtime = deferring()
    const counter = { runs: 0 }
    const registration = runtime.register(deleteFile(counter))
    const pending = expectPending(await runtime.execute(deleteCall('call-1', 'a-rather-long-name.txt')))
    registration.dispose()
    runtime.register(deleteFile(counter, 5))
    const result = await runtime.decide(pending.approvalId, { approved: true })
    expect(expectFailure(result).error.code).toBe('INVALID_ARGUMENTS')
    expect(counter.runs).toBe(0)
  })

  it('is denied by a guard or listener added after the call was deferred', async () => {
    const runtime = deferring()
    const counter = { runs: 0 }
    runtime.register(deleteFile(counter))
    const guarded = expectPending(await runtime.execute(deleteCall('g')))
    const listened = expectPending(await runtime.execute(deleteCall('l')))
    const guard = runtime.guard(() => 'deleting is off today')
    expect(expectFailure(await runtime.decide(guarded.approvalId, { approved: true })).error).toEqual({
      code: 'DENIED',
      message: 'deleting is off today',
    })
    guard.dispose()
    runtime.on('tools/pre-execute', () => ({ action: 'deny', reason: 'policy changed' }))
    expect(expectFailure(await runtime.decide(listened.approvalId, { approved: true })).error.code).toBe('DENIED')
    expect(counter.runs).toBe(0)
  })

  it('is not asked again by a listener that still asks: this approval answers it', async () => {
    const runtime = deferring()
    const counter = { runs: 0 }
    runtime.register(deleteFile(counter))
    runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'every delete is checked' }))
    const pending = expectPending(await runtime.execute(deleteCall()))
    expect(pending.approval.reasons).toEqual(['every delete is checked', 'delete_file needs approval before it runs.'])
    expectSuccess(await runtime.decide(pending.approvalId, { approved: true }))
    expect(counter.runs).toBe(1)
  })

  it('settles an expired approval as DENIED saying when it expired, and stops listing it', async () => {
    let now = 5_000
    const store = createMemoryStore()
    const runtime = createToolRuntime({ approvals: 'defer', store, clock: () => now, approvalTtlMs: 1_000 })
    const counter = { runs: 0 }
    runtime.register(deleteFile(counter))
    const pending = expectPending(await runtime.execute(deleteCall()))
    expect(await runtime.pendingApprovals()).toHaveLength(1)
    now = 6_000
    expect(await runtime.pendingApprovals()).toEqual([])
    const result = await runtime.decide(pending.approvalId, { approved: true })
    expect(expectFailure(result).error).toEqual({
      code: 'DENIED',
      message:
        'The call to delete_file was not approved: its approval expired at 1970-01-01T00:00:06.000Z without a decision.',
    })
    expect(counter.runs).toBe(0)
    expect(await store.getApproval(pending.approvalId)).toMatchObject({ state: 'settled' })
  })

  it('is decided by a second runtime that shares the store and has the same tools', async () => {
    const store = createMemoryStore()
    const first = deferring(store)
    const second = deferring(store)
    const counters = { first: { runs: 0 }, second: { runs: 0 } }
    first.register(deleteFile(counters.first))
    second.register(deleteFile(counters.second))
    const pending = expectPending(await first.execute(deleteCall()))
    expect((await second.pendingApprovals()).map((record) => record.approvalId)).toEqual([pending.approvalId])
    const result = await second.decide(pending.approvalId, { approved: true })
    expect(expectSuccess(result).value).toBe('deleted notes.txt')
    expect(counters).toEqual({ first: { runs: 0 }, second: { runs: 1 } })
    expect(await first.decide(pending.approvalId, { approved: true })).toEqual(result)
  })

  it('runs an agent call in that agent scope, with the tools the agent registered', async () => {
    const store = createMemoryStore()
    const runtime = deferring(store)
    const agent = runtime.agent('ana')
    const counter = { runs: 0 }
    agent.register(deleteFile(counter))
    const pending = expectPending(await agent.execute(deleteCall()))
    expect(pending.approval.agentId).toBe('ana')
    expect(await runtime.pendingApprovals({ agentId: 'bo' })).toEqual([])
    expect(await agent.pendingApprovals()).toHaveLength(1)
    expectSuccess(await runtime.decide(pending.approvalId, { approved: true }))
    expect(counter.runs).toBe(1)
  })

  it('settles a claim whose decider died as INTERRUPTED, and never runs the body', async () => {
    let now = 10_000
    const store = createMemoryStore()
    const runtime = createToolRuntime({ approvals: 'defer', store, clock: () => now, approvalLeaseMs: 1_000 })
    const counter = { runs: 0 }
    runtime.register(deleteFile(counter))
    const pending = expectPending(await runtime.execute(deleteCall()))
    // A process claims it and dies before settling: its lease lapses.
    const dead = await store.claimApproval({
      approvalId: pending.approvalId,
      answer: { approved: true },
      claimToken: 'dead-process',
      at: now,
      leaseUntil: now + 1_000,
    })
    expect(dead.status).toBe('claimed')
    now = 11_001
    const result = await runtime.decide(pending.approvalId, { approved: true })
    expect(expectFailure(result).error.code).toBe('INTERRUPTED')
    expect(result.content).toMatchInlineSnapshot(`
      [
        {
          "text": "Error: The call to delete_file was interrupted: the process carrying out its approval stopped before it settled, so the tool may or may not have run. It is not run again.",
          "type": "text",
        },
      ]
    `)
    expect(counter.runs).toBe(0)
    expect(await runtime.decide(pending.approvalId, { approved: true })).toEqual(result)
  })

  it('waits for a decider whose lease still runs, and answers its outcome', async () => {
    const store = createMemoryStore()
    const runtime = deferring(store)
    const counter = { runs: 0 }
    runtime.register(deleteFile(counter))
    const pending = expectPending(await runtime.execute(deleteCall()))
    const claim = { approvalId: pending.approvalId, answer: { approved: true }, claimToken: 'other', at: Date.now() }
    await store.claimApproval({ ...claim, leaseUntil: Date.now() + 60_000 })
    const waiting = runtime.decide(pending.approvalId, { approved: true })
    const outcome = { ok: true, value: 'done elsewhere', content: [{ type: 'text', text: 'done elsewhere' }] }
    setTimeout(() => void store.settleApproval(pending.approvalId, 'other', { ...outcome, durationMs: 1 }, 1), 40)
    expect(expectSuccess(await waiting).value).toBe('done elsewhere')
    expect(counter.runs).toBe(0)
  })
})

describe('decide: hostile and unknown input', () => {
  it('answers UNKNOWN_APPROVAL for an unknown id, a 1 MB id and a non-string, without rejecting', async () => {
    const runtime = deferring()
    const huge = 'x'.repeat(1_000_000)
    const started = performance.now()
    const results = await Promise.all([
      runtime.decide('no-such-approval', { approved: true }),
      runtime.decide(huge, { approved: true }),
      runtime.decide(42 as unknown as string, { approved: true }),
      runtime.decide('', { approved: true }),
    ])
    expect(performance.now() - started).toBeLessThan(1_000)
    for (const result of results) expect(expectFailure(result).error.code).toBe('UNKNOWN_APPROVAL')
    expect(results[0]!.content).toEqual([{ type: 'text', text: 'Error: No approval has the id "no-such-approval".' }])
    expect((results[1]!.content[0] as { text: string }).text.length).toBeLessThan(200)
  })

  it('fails closed on an answer that is not { approved: true }', async () => {
    const runtime = deferring()
    const counter = { runs: 0 }
    runtime.register(deleteFile(counter))
    const pending = expectPending(await runtime.execute(deleteCall()))
    const result = await runtime.decide(pending.approvalId, { approved: 'yes' } as unknown as { approved: boolean })
    expect(expectFailure(result).error.code).toBe('DENIED')
    expect(counter.runs).toBe(0)
  })

  it('fails as UNKNOWN_TOOL on a runtime that lacks the tool, and the approval is settled', async () => {
    const store = createMemoryStore()
    const maker = deferring(store)
    maker.register(deleteFile({ runs: 0 }))
    const pending = expectPending(await maker.execute(deleteCall()))
    const bare = deferring(store)
    const result = await bare.decide(pending.approvalId, { approved: true })
    expect(expectFailure(result).error.code).toBe('UNKNOWN_TOOL')
    expect(await store.getApproval(pending.approvalId)).toMatchObject({ state: 'settled' })
  })

  it('reports a store that fails as a failure, never a rejection', async () => {
    const store = createMemoryStore()
    const runtime = deferring({ ...store, getApproval: () => Promise.reject(new Error('connection reset')) })
    const result = await runtime.decide('some-id', { approved: true })
    expect(expectFailure(result).error).toEqual({
      code: 'TOOL_ERROR',
      message: 'The approval store failed: connection reset',
    })
  })

  it('settles the call as a failure when the store cannot record the approval', async () => {
    const store = createMemoryStore()
    const counter = { runs: 0 }
    const runtime = deferring({ ...store, putApproval: () => Promise.reject(new Error('disk full')) })
    runtime.register(deleteFile(counter))
    const result = await runtime.execute(deleteCall())
    expect(result.status).toBeUndefined()
    expect(expectFailure(result as Exclude<DeferredToolResult, ToolPending>).error).toEqual({
      code: 'TOOL_ERROR',
      message: 'The call to delete_file needs approval, but the approval could not be recorded: disk full',
    })
    expect(counter.runs).toBe(0)
  })
})

describe('the config of deferred approvals', () => {
  it('needs a store for defer, and refuses a session log beside a store', () => {
    expect(() => createToolRuntime({ approvals: 'defer' } as never)).toThrow(/config\.store is required/)
    const both = () => createToolRuntime({ store: createMemoryStore(), sessionLog: { append() {} } })
    expect(both).toThrow(/sessionLog cannot be given with store/)
    try {
      both()
    } catch (error) {
      expect(isToolRuntimeConfigError(error)).toBe(true)
    }
  })

  it('has no decide or pendingApprovals without defer, and still waits in memory', async () => {
    const runtime = createToolRuntime({ store: createMemoryStore(), approve: () => true })
    expect('decide' in runtime).toBe(false)
    expect('pendingApprovals' in runtime).toBe(false)
    const counter = { runs: 0 }
    runtime.register(deleteFile(counter))
    expectSuccess(await runtime.execute(deleteCall()))
    expect(counter.runs).toBe(1)
  })
})
