import { describe, expect, it } from 'vitest'
import { ToolErrorCode } from '../../errors/error-codes.js'
import { CALLS, RESULTS } from '../__fixtures__/calls-and-results.js'
import { completeResults } from './complete-results.js'

describe('completeResults', () => {
  it('gives exactly one result per call, in call order, filling the missing one as not run', () => {
    const complete = completeResults(CALLS, RESULTS)
    expect(complete.map((result) => result.id)).toEqual(CALLS.map((call) => call.id))
    expect(complete[4]).toEqual({
      id: 'call_5',
      name: 'read_file',
      ok: false,
      content: [{ type: 'text', text: 'Error: the call was not run, so it has no result' }],
      error: { code: ToolErrorCode.ABORTED_BEFORE_DISPATCH, message: 'the call was not run, so it has no result' },
      durationMs: 0,
    })
  })

  it('keeps the first result of a duplicated id and drops results no call asked for', () => {
    const [first] = RESULTS
    const complete = completeResults(
      [CALLS[3] as (typeof CALLS)[number]],
      [
        first as (typeof RESULTS)[number],
        { id: first?.id ?? '', name: first?.name ?? '', ok: true, content: [], value: null, durationMs: 0 },
        { id: 'stray', name: 'x', ok: true, content: [], value: null, durationMs: 0 },
      ],
    )
    expect(complete).toEqual([first])
  })
})
