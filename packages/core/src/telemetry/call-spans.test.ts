import type { Context, Span } from '@opentelemetry/api'
import { ROOT_CONTEXT } from '@opentelemetry/api'
import { describe, expect, it } from 'vitest'
import type { CallInfo } from '../pipeline/pipeline-events.js'
import { type CallSpan, CallSpans } from './call-spans.js'

function entry(id: string, options: { agentId?: string; parentId?: string; active?: boolean } = {}): CallSpan {
  const call: CallInfo = Object.freeze({
    id,
    name: 'tool',
    arguments: {},
    agentId: options.agentId,
    correlationId: `c-${id}`,
    parentId: options.parentId,
  })
  const context: Context | undefined = options.active === false ? undefined : ROOT_CONTEXT
  return { call, span: {} as Span, context, attempts: 0 }
}

describe('CallSpans', () => {
  it('finds a program started before the first look-up and one started after it, and forgets each when removed', () => {
    const spans = new CallSpans()
    const early = entry('run-1')
    spans.add(early)
    expect(spans.of(early.call)).toBe(early)
    expect(spans.program(undefined, 'run-1')).toBe(early)
    const late = entry('run-2')
    spans.add(late)
    expect(spans.program(undefined, 'run-2')).toBe(late)
    spans.remove(early)
    expect(spans.program(undefined, 'run-1')).toBeUndefined()
    expect(spans.of(early.call)).toBeUndefined()
    spans.remove(late)
    expect(spans.program(undefined, 'run-2')).toBeUndefined()
  })

  it('answers the oldest program of the agent among calls that share an id, never a sub-call or an inactive span', () => {
    const spans = new CallSpans()
    const inactive = entry('same', { active: false })
    const subCall = entry('same', { parentId: 'outer' })
    const otherAgent = entry('same', { agentId: 'b' })
    const first = entry('same', { agentId: 'a' })
    const second = entry('same', { agentId: 'a' })
    for (const added of [inactive, subCall, otherAgent, first]) spans.add(added)
    expect(spans.program(undefined, 'same')).toBeUndefined()
    expect(spans.program('a', 'same')).toBe(first)
    spans.add(second)
    spans.remove(first)
    expect(spans.program('a', 'same')).toBe(second)
    expect(spans.program('b', 'same')).toBe(otherAgent)
  })

  it('drains every span in flight, sub-calls and inactive spans included', () => {
    const spans = new CallSpans()
    const all = [entry('one'), entry('two', { parentId: 'one' }), entry('three', { active: false })]
    for (const added of all) spans.add(added)
    spans.program(undefined, 'one')
    expect(spans.drain()).toEqual(all)
    expect(spans.of(all[0]!.call)).toBeUndefined()
    expect(spans.program(undefined, 'one')).toBeUndefined()
  })
})
