import { describe, expect, it, vi } from 'vitest'
import { expectFailure, expectSuccess } from '../../../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import { isToolDefinitionError } from '../definition/tool-definition-error.js'
import { createToolRuntime } from './create-tool-runtime.js'
import type { ApprovalRequest } from './pipeline-events.js'

function transfer(needsApproval: boolean | ((args: { amount: number }) => boolean | Promise<boolean>)) {
  const body = vi.fn(({ amount }: { amount: number }) => `sent ${amount}`)
  const definition = defineTool({
    name: 'transfer',
    description: 'Send money.',
    parameters: { amount: { type: 'number', required: true } },
    needsApproval,
    execute: body,
  })
  return { definition, body }
}

const call = (amount: number | string) => ({ id: 't1', name: 'transfer', arguments: { amount } })

/** A runtime with an in-memory approver that records what it was asked and answers `answer`. */
function withApprover(answer: boolean) {
  const requests: ApprovalRequest[] = []
  const runtime = createToolRuntime({
    approve: (request) => {
      requests.push(request)
      return answer
    },
  })
  return { runtime, requests }
}

describe('needsApproval', () => {
  it('true asks the in-memory approver with its reason, as a listener ask does, and runs once approved', async () => {
    const { runtime, requests } = withApprover(true)
    const { definition, body } = transfer(true)
    runtime.register(definition)
    expect(expectSuccess(await runtime.execute(call(5))).value).toBe('sent 5')
    expect(requests.map((request) => request.reasons)).toEqual([['transfer needs approval before it runs.']])
    expect(body).toHaveBeenCalledTimes(1)
  })

  it('a refusal of the approver leaves the body unrun', async () => {
    const { runtime } = withApprover(false)
    const { definition, body } = transfer(true)
    runtime.register(definition)
    expect(expectFailure(await runtime.execute(call(5))).error.code).toBe('DENIED')
    expect(body).not.toHaveBeenCalled()
  })

  it('a function sees the validated, frozen arguments and asks only when it says so, sync or async', async () => {
    for (const decide of [
      (args: { amount: number }) => args.amount > 100,
      async (args: { amount: number }) => args.amount > 100,
    ]) {
      const { runtime, requests } = withApprover(true)
      const seen: unknown[] = []
      runtime.register(
        transfer((args) => {
          seen.push(Object.isFrozen(args))
          return decide(args)
        }).definition,
      )
      expectSuccess(await runtime.execute(call(5)))
      expectSuccess(await runtime.execute(call(500)))
      expect(requests).toHaveLength(1)
      expect(requests[0]!.call.arguments).toEqual({ amount: 500 })
      expect(seen).toEqual([true, true])
    }
  })

  it('is never called for arguments that do not validate, nor for a call a guard denied', async () => {
    const { runtime } = withApprover(true)
    const needs = vi.fn(() => true)
    runtime.register(transfer(needs).definition)
    expect(expectFailure(await runtime.execute(call('lots'))).error.code).toBe('INVALID_ARGUMENTS')
    const guard = runtime.guard(() => 'no transfers')
    expect(expectFailure(await runtime.execute(call(1))).error.code).toBe('DENIED')
    guard.dispose()
    expect(needs).not.toHaveBeenCalled()
  })

  it('false, or a function answering false, asks nobody: even without an approver the call runs', async () => {
    const runtime = createToolRuntime()
    runtime.register(transfer(false).definition)
    expectSuccess(await runtime.execute(call(1)))
    const other = createToolRuntime()
    other.register(transfer(async () => false).definition)
    expectSuccess(await other.execute(call(1)))
  })

  it('denies, with a clear message, when the function throws, rejects or answers a non-boolean', async () => {
    const cases = [
      () => {
        throw new Error('rates unavailable')
      },
      async () => {
        throw new Error('rates unavailable')
      },
      () => 'yes' as unknown as boolean,
    ]
    const messages: string[] = []
    for (const needs of cases) {
      const { runtime, requests } = withApprover(true)
      const { definition, body } = transfer(needs)
      runtime.register(definition)
      const failure = expectFailure(await runtime.execute(call(1)))
      expect(failure.error.code).toBe('DENIED')
      messages.push(failure.error.message)
      expect(body).not.toHaveBeenCalled()
      expect(requests).toEqual([])
    }
    expect(messages).toMatchInlineSnapshot(`
      [
        "Approval of the call to transfer could not be checked: its needsApproval failed: rates unavailable",
        "Approval of the call to transfer could not be checked: its needsApproval failed: rates unavailable",
        "Approval of the call to transfer could not be checked: its needsApproval answered something other than true or false.",
      ]
    `)
  })

  it('without an approver, a call that needs approval is denied as a listener ask is', async () => {
    const runtime = createToolRuntime()
    runtime.register(transfer(true).definition)
    expect(expectFailure(await runtime.execute(call(1))).error.message).toBe(
      'The call to transfer needs approval, but no approver is configured.',
    )
  })

  it('defineTool refuses a needsApproval that is neither a boolean nor a function', () => {
    const make = () =>
      defineTool({
        name: 'x',
        description: 'x',
        parameters: {},
        needsApproval: 'always' as unknown as boolean,
        execute: () => 1,
      })
    expect(make).toThrow(/needsApproval: must be true, false or a function/)
    try {
      make()
    } catch (error) {
      expect(isToolDefinitionError(error)).toBe(true)
    }
  })
})
