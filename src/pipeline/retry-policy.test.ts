import { describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from '../../test/support/settled-result.js'
import { defineTool } from '../definition/define-tool.js'
import type { ToolAnnotations } from '../definition/tool-definition.js'
import { isInvalidArgumentError } from '../errors/invalid-argument-error.js'
import { createMemorySessionLog } from '../session-log/memory-session-log.js'
import { call, deferred } from './__fixtures__/tools.js'
import { createToolRuntime } from './create-tool-runtime.js'
import type { ResultEvent } from './pipeline-events.js'
import { type RetryPolicyOptions, retryPolicy } from './retry-policy.js'

interface Flaky {
  /** How many times the body ran. */
  runs: number
}

/** A tool whose body throws its first `failures` runs, then answers `done`. */
function flaky(
  name: string,
  failures: number,
  declared: { executionMode?: 'parallel' | 'exclusive'; idempotent?: boolean; annotations?: ToolAnnotations } = {},
) {
  const state: Flaky = { runs: 0 }
  const tool = defineTool({
    name,
    description: `The ${name} tool.`,
    parameters: { id: { type: 'string' } },
    ...declared,
    execute: () => {
      state.runs++
      if (state.runs <= failures) throw new Error(`attempt ${state.runs} failed`)
      return 'done'
    },
  })
  return { tool, state }
}

function setup(options: RetryPolicyOptions = { backoffMs: 0 }) {
  const sessionLog = createMemorySessionLog()
  const runtime = createToolRuntime({ sessionLog })
  const results: ResultEvent[] = []
  runtime.on('tools/result', (event) => {
    results.push(event)
  })
  runtime.on('tools/execute', retryPolicy(options))
  return { runtime, sessionLog, results }
}

describe('retryPolicy', () => {
  it('retries a read-only call: every attempt logged under the call id, one settle, one result event', async () => {
    const { runtime, sessionLog, results } = setup()
    const { tool, state } = flaky('lookup', 2, { executionMode: 'parallel' })
    runtime.register(tool)
    const result = expectSuccess(await runtime.execute(call('lookup', {}, 'c1')))
    expect(result.value).toBe('done')
    expect(state.runs).toBe(3)
    expect(result.metadata).toEqual({ retry: { attempts: 3 } })
    expect(sessionLog.records.map((record) => [record.type, record.id])).toEqual([
      ['tool.call.started', 'c1'],
      ['tool.call.attempt', 'c1'],
      ['tool.call.attempt', 'c1'],
      ['tool.call.settled', 'c1'],
    ])
    const [, first, second, settled] = sessionLog.records
    expect(first).toMatchObject({ attempt: 1, error: { code: 'TOOL_ERROR', message: 'attempt 1 failed' } })
    expect(second).toMatchObject({ attempt: 2, error: { code: 'TOOL_ERROR', message: 'attempt 2 failed' } })
    expect(settled).toMatchObject({ ok: true, attempt: 3, metadata: { retry: { attempts: 3 } } })
    expect(results.map((event) => event.result.id)).toEqual(['c1'])
  })

  it('does not retry an exclusive tool that is not idempotent, and says so in the log', async () => {
    const { runtime, sessionLog } = setup()
    const { tool, state } = flaky('send_mail', 1)
    runtime.register(tool)
    const result = expectFailure(await runtime.execute(call('send_mail', {}, 'm1')))
    expect(state.runs).toBe(1)
    expect(result.error.message).toBe('attempt 1 failed')
    const note = {
      attempts: 1,
      notRetried: 'send_mail is neither parallel for these arguments nor declared idempotent',
    }
    expect(result.metadata).toEqual({ retry: note })
    expect(sessionLog.records.map((record) => record.type)).toEqual(['tool.call.started', 'tool.call.settled'])
    expect(sessionLog.records[1]).toMatchObject({ metadata: { retry: note } })
    expect(sessionLog.records[1]).not.toHaveProperty('attempt')
  })

  it.each([
    ['idempotent: true', { idempotent: true }],
    ['annotations.idempotentHint', { annotations: { idempotentHint: true } }],
    ['annotations.readOnlyHint (parallel by default)', { annotations: { readOnlyHint: true } }],
  ] as const)('retries an exclusive-looking tool that declares %s', async (_label, declared) => {
    const { runtime } = setup()
    const { tool, state } = flaky('put_record', 1, declared)
    runtime.register(tool)
    expect(expectSuccess(await runtime.execute(call('put_record'))).value).toBe('done')
    expect(state.runs).toBe(2)
  })

  it('asks the execution mode for these arguments', async () => {
    const { runtime } = setup()
    let runs = 0
    runtime.register(
      defineTool({
        name: 'fetch_or_delete',
        description: 'Reads unless asked to delete.',
        parameters: { delete: { type: 'boolean' } },
        executionMode: (args) => (args.delete === true ? 'exclusive' : 'parallel'),
        execute: () => {
          runs++
          throw new Error('unavailable')
        },
      }),
    )
    await runtime.execute(call('fetch_or_delete', { delete: false }))
    expect(runs).toBe(3)
    runs = 0
    await runtime.execute(call('fetch_or_delete', { delete: true }))
    expect(runs).toBe(1)
  })

  it('keeps the last failure when the retries run out, and waits as backoffMs says before each retry', async () => {
    const waits: number[] = []
    const { runtime } = setup({
      retries: 3,
      backoffMs: (retry) => {
        waits.push(retry)
        return 1
      },
    })
    const { tool, state } = flaky('always_down', 10, { executionMode: 'parallel' })
    runtime.register(tool)
    const result = expectFailure(await runtime.execute(call('always_down')))
    expect(result.error.message).toBe('attempt 4 failed')
    expect(result.metadata).toEqual({ retry: { attempts: 4 } })
    expect(state.runs).toBe(4)
    expect(waits).toEqual([1, 2, 3])
  })

  it('retries timeouts and tool errors by default, nothing else; `on` chooses other codes', async () => {
    let runs = 0
    const badOutput = defineTool({
      name: 'bad_output',
      description: 'Returns a number where a string is due.',
      parameters: {},
      output: { schema: { type: 'string' } },
      executionMode: 'parallel',
      execute: () => {
        runs++
        return 7 as unknown as string
      },
    })
    const byDefault = setup()
    byDefault.runtime.register(badOutput)
    expect(expectFailure(await byDefault.runtime.execute(call('bad_output'))).error.code).toBe('INVALID_OUTPUT')
    expect(runs).toBe(1)
    runs = 0
    const chosen = setup({ backoffMs: 0, on: ['INVALID_OUTPUT'] })
    chosen.runtime.register(badOutput)
    await chosen.runtime.execute(call('bad_output'))
    expect(runs).toBe(3)
    runs = 0
    const tested = setup({ backoffMs: 0, retries: 1, on: (error) => error.code === 'INVALID_OUTPUT' })
    tested.runtime.register(badOutput)
    await tested.runtime.execute(call('bad_output'))
    expect(runs).toBe(2)
  })

  it("gives each attempt the runtime's deadline afresh: a call that timed out once answers on the retry", async () => {
    const { runtime, sessionLog } = setup()
    let runs = 0
    runtime.register(
      defineTool({
        name: 'slow_once',
        description: 'Hangs on its first run.',
        parameters: {},
        executionMode: 'parallel',
        timeoutMs: 30,
        execute: (_args, exec) =>
          ++runs === 1
            ? new Promise<string>((_resolve, reject) =>
                exec.signal.addEventListener('abort', () => reject(exec.signal.reason)),
              )
            : 'answered',
      }),
    )
    expect(expectSuccess(await runtime.execute(call('slow_once', {}, 's1'))).value).toBe('answered')
    expect(sessionLog.records[1]).toMatchObject({
      type: 'tool.call.attempt',
      attempt: 1,
      error: { code: 'TOOL_TIMEOUT' },
    })
  })

  it('stops waiting at once when the call is cancelled during the backoff, and settles with the last failure', async () => {
    const { runtime, results } = setup({ backoffMs: 600_000 })
    const { tool, state } = flaky('cancelled', 5, { executionMode: 'parallel' })
    const failedOnce = deferred()
    runtime.register(tool)
    runtime.on('tools/execute', (_exec, next) => next().finally(() => failedOnce.resolve()), { order: 1 })
    const controller = new AbortController()
    const settled = runtime.execute(call('cancelled', {}, 'x1'), { signal: controller.signal })
    await failedOnce.promise
    controller.abort()
    const result = expectFailure(await settled)
    expect(result.error.message).toBe('attempt 1 failed')
    expect(result.metadata).toEqual({ retry: { attempts: 1, stopped: 'cancelled while waiting to retry' } })
    expect(state.runs).toBe(1)
    expect(results).toHaveLength(1)
  })

  it.each([
    [{ retries: -1 }],
    [{ retries: 1.5 }],
    [{ backoffMs: -5 }],
    [{ backoffMs: Number.NaN }],
    [{ on: ['NOT_A_CODE'] }],
    [{ on: 'TOOL_ERROR' }],
  ])('refuses options %j with an InvalidArgumentError', (options) => {
    let thrown: unknown
    try {
      retryPolicy(options as RetryPolicyOptions)
    } catch (error) {
      thrown = error
    }
    expect(isInvalidArgumentError(thrown)).toBe(true)
  })
})
