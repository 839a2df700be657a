import { describe, expect, it } from 'vitest'
import { createMemorySessionLog } from '../session-log/memory-session-log.js'
import { add, call } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'
import type { ApprovalEvent, Approver } from './pipeline-events.js'

function asking(approve: Approver) {
  const sessionLog = createMemorySessionLog()
  const runtime = createToolRuntime({ approve, sessionLog })
  runtime.register(add)
  runtime.on('tools/pre-execute', () => ({ action: 'ask', reason: 'adds numbers' }))
  const events: ApprovalEvent[] = []
  runtime.on('tools/approval', (event) => {
    events.push(event)
  })
  return { runtime, sessionLog, events }
}

const approvals = (log: ReturnType<typeof createMemorySessionLog>) =>
  log.records.filter((record) => record.type === 'tool.call.approval')

describe('tools/approval and the approval record', () => {
  it('reports a denial with its reason, who decided and how long the call waited', async () => {
    const { runtime, sessionLog, events } = asking(async () => {
      await new Promise((resolve) => setTimeout(resolve, 30))
      return { approved: false, reason: 'not today', decidedBy: 'alice' }
    })
    const result = await runtime.execute(call('add', { a: 1, b: 2 }))
    expect(result).toMatchObject({ ok: false, error: { code: 'DENIED', message: 'not today' } })
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ verdict: 'denied', reason: 'not today', decidedBy: 'alice' })
    expect(events[0]!.reasons).toEqual(['adds numbers'])
    expect(events[0]!.call.name).toBe('add')
    expect(events[0]!.waitedMs).toBeGreaterThanOrEqual(25)
    expect(approvals(sessionLog)).toEqual([
      expect.objectContaining({ id: 'call-add', verdict: 'denied', reason: 'not today', decidedBy: 'alice' }),
    ])
    expect(sessionLog.records.map((record) => record.type)).toEqual([
      'tool.call.started',
      'tool.call.approval',
      'tool.call.settled',
    ])
  })

  it('reports an approval, a throwing approver and a cancelled wait', async () => {
    const approved = asking(() => true)
    expect((await approved.runtime.execute(call('add', { a: 1, b: 2 }))).ok).toBe(true)
    expect(approved.events.map((event) => event.verdict)).toEqual(['approved'])
    expect(approved.events[0]!.decidedBy).toBeUndefined()

    const throwing = asking(() => {
      throw new Error('approver down')
    })
    expect((await throwing.runtime.execute(call('add', { a: 1, b: 2 }))).ok).toBe(false)
    expect(throwing.events[0]).toMatchObject({ verdict: 'failed' })
    expect(throwing.events[0]!.reason).toContain('approver down')

    const controller = new AbortController()
    const waiting = asking(() => new Promise<boolean>(() => {}))
    const pending = waiting.runtime.execute(call('add', { a: 1, b: 2 }), { signal: controller.signal })
    setTimeout(() => controller.abort(), 10)
    expect(await pending).toMatchObject({ ok: false, error: { code: 'ABORTED_BEFORE_DISPATCH' } })
    expect(waiting.events.map((event) => event.verdict)).toEqual(['aborted'])
  })

  it('keeps an observer that throws, rejects or names a hostile decider away from the call', async () => {
    const { runtime, events } = asking(() => ({ approved: true, decidedBy: 'x'.repeat(100_000) }))
    runtime.on('tools/approval', () => {
      throw new Error('observer bug')
    })
    runtime.on('tools/approval', () => Promise.reject(new Error('async observer bug')))
    const result = await runtime.execute(call('add', { a: 2, b: 3 }))
    expect(result).toMatchObject({ ok: true, value: 5 })
    expect(events[0]!.decidedBy).toHaveLength(200)
  })

  it('records an approval given before the call arrived without asking the approver again; guards and denials still apply', async () => {
    let asked = 0
    const { runtime, sessionLog, events } = asking(() => {
      asked++
      return false
    })
    const guarded: string[] = []
    runtime.guard((info) => {
      guarded.push(info.id)
      return info.arguments.a === 13 ? 'unlucky' : undefined
    })
    const approval = { approved: true, decidedBy: 'openai-agents' }
    expect(await runtime.execute(call('add', { a: 1, b: 2 }), { approval })).toMatchObject({ ok: true, value: 3 })
    expect(asked).toBe(0)
    expect(events).toEqual([expect.objectContaining({ verdict: 'approved', decidedBy: 'openai-agents' })])
    expect(approvals(sessionLog)).toEqual([
      expect.objectContaining({ verdict: 'approved', decidedBy: 'openai-agents' }),
    ])
    const guardedCall = { ...call('add', { a: 13, b: 2 }), id: 'call-13' }
    expect(await runtime.execute(guardedCall, { approval })).toMatchObject({ ok: false, error: { code: 'DENIED' } })
    expect(guarded).toEqual(['call-add', 'call-13'])
    expect(await runtime.execute(call('add', { a: 1, b: 2 }), { approval: 42 as never })).toMatchObject({ ok: false })
    expect(asked).toBe(1)
    runtime.on('tools/pre-execute', () => ({ action: 'deny', reason: 'closed today' }))
    const denied = await runtime.execute(call('add', { a: 1, b: 2 }), { approval })
    expect(denied).toMatchObject({ ok: false, error: { code: 'DENIED', message: 'closed today' } })
  })

  it('reports nothing for a call that did not ask', async () => {
    const sessionLog = createMemorySessionLog()
    const runtime = createToolRuntime({ approve: () => true, sessionLog })
    runtime.register(add)
    const events: ApprovalEvent[] = []
    runtime.on('tools/approval', (event) => {
      events.push(event)
    })
    await runtime.execute(call('add', { a: 1, b: 2 }))
    expect(events).toEqual([])
    expect(approvals(sessionLog)).toEqual([])
  })
})
