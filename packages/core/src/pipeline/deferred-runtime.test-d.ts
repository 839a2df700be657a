import { describe, expectTypeOf, it } from 'vitest'
import type { ApprovalRecord } from '../approvals/approval-store.js'
import { createMemoryStore } from '../approvals/memory-store.js'
import { defineTool } from '../definition/define-tool.js'
import type { DeferredToolResult, ToolPending, ToolResult } from './call.js'
import { createToolRuntime } from './create-tool-runtime.js'
import type { DeferringAgentRuntime, DeferringToolRuntime, ToolRuntime } from './tool-runtime.js'

const call = { id: '1', name: 'x', arguments: {} }

describe('a deferring runtime', () => {
  const runtime = createToolRuntime({ approvals: 'defer', store: createMemoryStore() })

  it('is typed by approvals: defer, and its results may be pending', () => {
    expectTypeOf(runtime).toEqualTypeOf<DeferringToolRuntime>()
    expectTypeOf(runtime.execute(call)).toEqualTypeOf<Promise<DeferredToolResult>>()
    expectTypeOf(runtime.executeAll([call])).toEqualTypeOf<Promise<DeferredToolResult[]>>()
    expectTypeOf(runtime.agent('a')).toEqualTypeOf<DeferringAgentRuntime>()
    expectTypeOf(runtime.agent('a').decide).toEqualTypeOf<DeferringToolRuntime['decide']>()
  })

  it('decides into a settled result, and lists records', () => {
    expectTypeOf(runtime.decide('id', { approved: true })).toEqualTypeOf<Promise<ToolResult>>()
    expectTypeOf(runtime.pendingApprovals({ toolName: 'x', limit: 5 })).toEqualTypeOf<
      Promise<readonly ApprovalRecord[]>
    >()
    // @ts-expect-error pendingApprovals lists pending ones only: no state to choose
    void runtime.pendingApprovals({ state: 'settled' })
    // @ts-expect-error an answer says whether it is approved
    void runtime.decide('id', { reason: 'fine' })
  })

  it('narrows a result on status, then on ok', async () => {
    const result = await runtime.execute(call)
    if (result.status === 'pending') {
      expectTypeOf(result).toEqualTypeOf<ToolPending>()
      expectTypeOf(result.approvalId).toEqualTypeOf<string>()
    } else if (result.ok) {
      expectTypeOf(result.value).not.toBeUndefined()
    } else {
      expectTypeOf(result.error.code).toBeString()
    }
    // @ts-expect-error a pending result is not a ToolResult
    const settled: ToolResult = result
    void settled
  })
})

describe('a runtime that waits', () => {
  const runtime = createToolRuntime({ store: createMemoryStore() })

  it('has settled results only, and neither decide nor pendingApprovals', () => {
    expectTypeOf(runtime).toEqualTypeOf<ToolRuntime>()
    expectTypeOf(runtime.execute(call)).toEqualTypeOf<Promise<ToolResult>>()
    // @ts-expect-error only a deferring runtime decides
    void runtime.decide('id', { approved: true })
    // @ts-expect-error only a deferring runtime lists pending approvals
    void runtime.pendingApprovals()
    expectTypeOf(createToolRuntime({ approvals: 'wait' })).toEqualTypeOf<ToolRuntime>()
  })

  it('refuses defer without a store', () => {
    // @ts-expect-error approvals: 'defer' needs the store that keeps them
    createToolRuntime({ approvals: 'defer' })
  })
})

describe('needsApproval', () => {
  it('takes true or a function of the typed arguments, sync or async', () => {
    defineTool({
      name: 'a',
      description: 'a',
      parameters: { amount: { type: 'number', required: true } },
      needsApproval: (args) => {
        expectTypeOf(args.amount).toEqualTypeOf<number>()
        return Promise.resolve(args.amount > 10)
      },
      execute: () => 1,
    })
    defineTool({ name: 'b', description: 'b', parameters: {}, needsApproval: true, execute: () => 1 })
    // @ts-expect-error a reason string is not an answer
    defineTool({ name: 'c', description: 'c', parameters: {}, needsApproval: () => 'yes', execute: () => 1 })
  })
})
