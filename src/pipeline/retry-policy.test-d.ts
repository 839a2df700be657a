import { describe, expectTypeOf, test } from 'vitest'
import type { ToolErrorInfo } from '../errors/tool-error.js'
import type { ExecuteWrapper } from './pipeline-events.js'
import { retryPolicy } from './retry-policy.js'

describe('retryPolicy', () => {
  test('is an execute wrapper, with every option optional', () => {
    expectTypeOf(retryPolicy()).toEqualTypeOf<ExecuteWrapper>()
    expectTypeOf(
      retryPolicy({ retries: 3, backoffMs: (retry) => retry * 50, on: ['TOOL_TIMEOUT'] }),
    ).toEqualTypeOf<ExecuteWrapper>()
    retryPolicy({
      on: (error) => {
        expectTypeOf(error).toEqualTypeOf<ToolErrorInfo>()
        return error.code === 'TOOL_ERROR'
      },
    })
  })

  test('takes error codes only, and a number or a function of the retry for the backoff', () => {
    // @ts-expect-error: not an error code
    retryPolicy({ on: ['TIMEOUT'] })
    // @ts-expect-error: the backoff is a number of ms or a function of the retry number
    retryPolicy({ backoffMs: '100ms' })
  })
})
