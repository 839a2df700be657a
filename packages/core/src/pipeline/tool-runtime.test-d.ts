import { describe, expectTypeOf, it } from 'vitest'
import type { Disposer } from '../registry/disposer.js'
import type { CallOutcome, ToolResult } from './call.js'
import { createToolRuntime } from './create-tool-runtime.js'
import type { CallInfo, PostExecuteEvent, PreExecuteEvent, ResultEvent, WrappedExecution } from './pipeline-events.js'

describe('ToolRuntime types', () => {
  const runtime = createToolRuntime()

  it('types each event listener by its event name', () => {
    runtime.on('tools/pre-execute', (event) => {
      expectTypeOf(event).toEqualTypeOf<PreExecuteEvent>()
      return { action: 'deny', reason: 'no', error: { userMessage: 'blocked' } }
    })
    runtime.on('tools/execute', (exec, next) => {
      expectTypeOf(exec).toEqualTypeOf<WrappedExecution>()
      expectTypeOf(next()).toEqualTypeOf<Promise<CallOutcome>>()
      return next({ signal: AbortSignal.timeout(10) })
    })
    runtime.on('tools/post-execute', (event) => {
      expectTypeOf(event).toEqualTypeOf<PostExecuteEvent>()
      return { block: 'feedback' }
    })
    runtime.on('tools/result', (event) => expectTypeOf(event).toEqualTypeOf<ResultEvent>(), { order: 1 })
    runtime.guard((call) => {
      expectTypeOf(call).toEqualTypeOf<CallInfo>()
      return undefined
    })
  })

  it('rejects unknown events and malformed decisions', () => {
    // @ts-expect-error no such event
    runtime.on('tools/before', () => undefined)
    // @ts-expect-error a deny needs a reason
    runtime.on('tools/pre-execute', () => ({ action: 'deny' }))
    // @ts-expect-error guards are synchronous
    runtime.guard(async () => 'no')
    // @ts-expect-error order is a number
    runtime.on('tools/result', () => undefined, { order: 'first' })
  })

  it('returns disposers and results', () => {
    expectTypeOf(runtime.restrict({ allow: ['a'] })).toEqualTypeOf<Disposer>()
    expectTypeOf(runtime.presentAs('native')).toEqualTypeOf<Disposer>()
    expectTypeOf(runtime.execute({ id: '1', name: 'a', arguments: '{}' })).toEqualTypeOf<Promise<ToolResult>>()
    expectTypeOf(runtime.executeAll([])).toEqualTypeOf<Promise<ToolResult[]>>()
    // @ts-expect-error not a presentation mode
    runtime.presentAs('hybrid')
  })

  it('gives an agent view a string id and a disposer, and the global scope neither', () => {
    const agent = runtime.agent('a')
    expectTypeOf(agent.agentId).toEqualTypeOf<string>()
    expectTypeOf(agent).toExtend<Disposable>()
    expectTypeOf(runtime.agentId).toEqualTypeOf<string | undefined>()
    // @ts-expect-error the global scope is not disposable
    runtime.dispose()
  })
})
