import type { ToolResult } from 'qilin-tools/internal/pipeline/call.js'
import { describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess } from './settled-result.js'

const settled = { id: 'call-1', name: 'add', durationMs: 1 }
const success: ToolResult = { ...settled, ok: true, value: 3, content: [{ type: 'text', text: '3' }] }
const failure: ToolResult = {
  ...settled,
  ok: false,
  error: { code: 'TOOL_ERROR', message: 'boom' },
  content: [{ type: 'text', text: 'Error: boom' }],
}

describe('expectSuccess and expectFailure', () => {
  it('hand back the result they expect, unchanged', () => {
    expect(expectSuccess(success)).toBe(success)
    expect(expectFailure(failure)).toBe(failure)
  })

  it('throw, saying what came instead, when the call went the other way or has no result', () => {
    expect(() => expectSuccess(failure)).toThrow('expected a successful call, got TOOL_ERROR: boom')
    expect(() => expectFailure(success)).toThrow('expected a failed call, got the value 3')
    expect(() => expectSuccess(undefined)).toThrow('expected a successful call, got no result')
    expect(() => expectFailure(undefined)).toThrow('expected a failed call, got no result')
  })
})
