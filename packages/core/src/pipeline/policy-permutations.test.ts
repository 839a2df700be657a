import { describe, expect, it } from 'vitest'
import { expectFailure } from '../../../../test/support/settled-result.js'
import { add, call } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'
import type { PreExecuteListener, ToolGuard } from './pipeline-events.js'

type Participant =
  | {
      readonly kind: 'listener'
      readonly label: string
      readonly listener: PreExecuteListener
      readonly denies: boolean
    }
  | { readonly kind: 'guard'; readonly label: string; readonly guard: ToolGuard; readonly denies: boolean }

const participants: readonly Participant[] = [
  { kind: 'listener', label: 'allow', listener: () => ({ action: 'allow' }), denies: false },
  { kind: 'listener', label: 'deny', listener: () => ({ action: 'deny', reason: 'listener says no' }), denies: true },
  { kind: 'listener', label: 'ask', listener: () => ({ action: 'ask', reason: 'please confirm' }), denies: false },
  { kind: 'listener', label: 'async-allow', listener: async () => ({ action: 'allow' }), denies: false },
  { kind: 'guard', label: 'guard-pass', guard: () => undefined, denies: false },
  { kind: 'guard', label: 'guard-deny', guard: () => 'guard says no', denies: true },
]

/** Every ordered selection of 1 to 6 participants. */
function* orders(pool: readonly Participant[], prefix: readonly Participant[] = []): Generator<readonly Participant[]> {
  if (prefix.length > 0) yield prefix
  for (const candidate of pool) {
    if (!prefix.includes(candidate)) yield* orders(pool, [...prefix, candidate])
  }
}

describe('policy permutations', () => {
  it('a deny stays final in every order of up to 6 listeners and guards, even with an approver that always approves', async () => {
    let checked = 0
    for (const order of orders(participants)) {
      let approvals = 0
      let bodies = 0
      const runtime = createToolRuntime({
        approve: () => {
          approvals++
          return true
        },
      })
      runtime.register(add)
      runtime.on('tools/execute', (_exec, next) => {
        bodies++
        return next()
      })
      order.forEach((participant, position) => {
        if (participant.kind === 'listener') runtime.on('tools/pre-execute', participant.listener, { order: position })
        else runtime.guard(participant.guard)
      })
      const result = await runtime.execute(call('add', { a: 1, b: 2 }))
      const listeners = order.filter((participant) => participant.kind === 'listener')
      const guards = order.filter((participant) => participant.kind === 'guard')
      const firstDeny = [...listeners, ...guards].find((participant) => participant.denies)
      const label = order.map((participant) => participant.label).join(' > ')
      if (firstDeny !== undefined) {
        expect(expectFailure(result).error.code, label).toBe('DENIED')
        expect(expectFailure(result).error.message, label).toBe(
          firstDeny.label === 'deny' ? 'listener says no' : 'guard says no',
        )
        expect(approvals, label).toBe(0)
        expect(bodies, label).toBe(0)
      } else {
        expect(result.ok, label).toBe(true)
        expect(approvals, label).toBe(order.some((participant) => participant.label === 'ask') ? 1 : 0)
        expect(bodies, label).toBe(1)
      }
      checked++
    }
    expect(checked).toBe(6 + 30 + 120 + 360 + 720 + 720)
  })
})
