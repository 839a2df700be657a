import { describe, expect, it } from 'vitest'
import { expectFailure } from '../../../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import { ToolError } from '../errors/tool-error.js'
import { call } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'
import { type AbortPhase, abortPrecedence, type OutcomeKind } from './outcome-precedence.js'
import type { ToolRuntime } from './tool-runtime.js'

/**
 * Each scenario produces one outcome kind; when `abort` is set the caller's signal is aborted at the moment the stage
 * producing that outcome runs (or before the call, for outcomes decided before any stage can run).
 */
interface Scenario {
  readonly phase: AbortPhase
  /** Abort before execute is even called. */
  readonly preAborted?: boolean
  setup(runtime: ToolRuntime, abort: () => void): { name: string; args?: unknown }
}

const body = (name: string, execute: (abort: () => void) => unknown) => (runtime: ToolRuntime, abort: () => void) => {
  runtime.register(
    defineTool({
      name,
      description: name,
      parameters: {},
      output: { schema: { type: 'string' } },
      execute: () => execute(abort) as string,
    }),
  )
  return { name }
}

const fine = (runtime: ToolRuntime) => {
  runtime.register(defineTool({ name: 'fine', description: 'fine', parameters: {}, execute: () => 'ok' }))
  return { name: 'fine' }
}

const scenarios: Record<OutcomeKind, Scenario> = {
  OK: {
    phase: 'after-dispatch',
    setup: body('ok', (abort) => {
      abort()
      return 'done'
    }),
  },
  UNKNOWN_TOOL: { phase: 'before-dispatch', preAborted: true, setup: () => ({ name: 'missing' }) },
  INVALID_ARGUMENTS: {
    phase: 'before-dispatch',
    preAborted: true,
    setup: (runtime) => ({ ...fine(runtime), args: '{"unexpected": true}' }),
  },
  DENIED: {
    phase: 'before-dispatch',
    setup: (runtime, abort) => {
      runtime.on('tools/pre-execute', () => {
        abort()
        return { action: 'deny', reason: 'no' }
      })
      return fine(runtime)
    },
  },
  ABORTED_BEFORE_DISPATCH: { phase: 'before-dispatch', preAborted: true, setup: fine },
  ABORTED: {
    phase: 'after-dispatch',
    setup: body('aborted', (abort) => {
      abort()
      throw new ToolError({ code: 'ABORTED', message: 'stopped' })
    }),
  },
  TOOL_TIMEOUT: {
    phase: 'after-dispatch',
    setup: (runtime, abort) => {
      runtime.on('tools/execute', async (_exec, next) => {
        await next()
        abort()
        return { ok: false, error: { code: 'TOOL_TIMEOUT', message: 'late' } }
      })
      return fine(runtime)
    },
  },
  TOOL_ERROR: {
    phase: 'after-dispatch',
    setup: body('broken', (abort) => {
      abort()
      throw new Error('broken')
    }),
  },
  INVALID_OUTPUT: {
    phase: 'after-dispatch',
    setup: body('wrong', (abort) => {
      abort()
      return 42
    }),
  },
  WRAPPER_ERROR: {
    phase: 'after-dispatch',
    setup: (runtime, abort) => {
      runtime.on('tools/execute', async (_exec, next) => {
        await next()
        abort()
        throw new Error('wrapper broke')
      })
      return fine(runtime)
    },
  },
  LISTENER_ERROR: {
    phase: 'after-dispatch',
    setup: (runtime, abort) => {
      runtime.on('tools/post-execute', () => {
        abort()
        throw new Error('listener broke')
      })
      return fine(runtime)
    },
  },
  BLOCKED: {
    phase: 'after-dispatch',
    setup: (runtime, abort) => {
      runtime.on('tools/post-execute', () => {
        abort()
        return { block: 'hidden' }
      })
      return fine(runtime)
    },
  },
  TOOL_CHANGED: {
    phase: 'after-dispatch',
    setup: body('changed', (abort) => {
      abort()
      throw new ToolError({ code: 'TOOL_CHANGED', message: 'The tool "x" was replaced' })
    }),
  },
  CODE_RUN_FAILED: {
    phase: 'after-dispatch',
    setup: body('program', (abort) => {
      abort()
      throw new ToolError({ code: 'CODE_RUN_FAILED', message: 'code run failed (runtime): boom' })
    }),
  },
  INTERRUPTED: {
    phase: 'after-dispatch',
    setup: body('interrupted', (abort) => {
      abort()
      throw new ToolError({ code: 'INTERRUPTED', message: 'the deciding process stopped' })
    }),
  },
  UNKNOWN_APPROVAL: {
    phase: 'after-dispatch',
    setup: body('unknown_approval', (abort) => {
      abort()
      throw new ToolError({ code: 'UNKNOWN_APPROVAL', message: 'no such approval' })
    }),
  },
}

async function settle(kind: OutcomeKind, withAbort: boolean) {
  const scenario = scenarios[kind]
  const runtime = createToolRuntime()
  const controller = new AbortController()
  const { name, args } = scenario.setup(runtime, () => {
    if (withAbort) controller.abort()
  })
  if (withAbort && scenario.preAborted) controller.abort()
  const result = await runtime.execute(call(name, args ?? {}), { signal: controller.signal })
  return result.ok ? 'OK' : result.error?.code
}

describe('abort precedence table', () => {
  it('has a scenario for every outcome kind', () => {
    expect(Object.keys(scenarios).sort()).toEqual(Object.keys(abortPrecedence).sort())
  })

  it.each(Object.keys(abortPrecedence) as OutcomeKind[])('%s keeps its kind without an abort', async (kind) => {
    expect(await settle(kind, false)).toBe(kind === 'ABORTED_BEFORE_DISPATCH' ? 'OK' : kind)
  })

  it.each(Object.keys(abortPrecedence) as OutcomeKind[])('%s with an abort settles as the table says', async (kind) => {
    const expected = abortPrecedence[kind][scenarios[kind].phase]
    expect(await settle(kind, true)).toBe(expected)
  })

  it('only ever replaces success', () => {
    for (const [kind, row] of Object.entries(abortPrecedence)) {
      if (kind === 'OK') continue
      expect(row).toEqual({ 'before-dispatch': kind, 'after-dispatch': kind })
    }
    expect(abortPrecedence.OK).toEqual({ 'before-dispatch': 'ABORTED_BEFORE_DISPATCH', 'after-dispatch': 'ABORTED' })
  })

  it('a pre-execute abort that then allows never reaches the body', async () => {
    const runtime = createToolRuntime()
    const controller = new AbortController()
    let ran = false
    runtime.register(
      defineTool({
        name: 'guarded',
        description: 'x',
        parameters: {},
        execute: () => {
          ran = true
          return 1
        },
      }),
    )
    runtime.on('tools/pre-execute', () => {
      controller.abort()
      return undefined
    })
    const result = await runtime.execute(call('guarded'), { signal: controller.signal })
    expect(expectFailure(result).error.code).toBe(abortPrecedence.OK['before-dispatch'])
    expect(ran).toBe(false)
  })
})
