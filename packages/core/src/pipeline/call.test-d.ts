import { describe, expectTypeOf, it } from 'vitest'
import type { ContentPart } from '../definition/content.js'
import type { ToolErrorInfo } from '../errors/tool-error.js'
import type { JsonValue } from '../json-schema/json-value.js'
import type { CallFailure, CallOutcome, CallSuccess, ToolFailure, ToolResult, ToolSuccess } from './call.js'

declare const result: ToolResult
declare const outcome: CallOutcome
const error: ToolErrorInfo = { code: 'TOOL_ERROR', message: 'boom' }
const content: readonly ContentPart[] = [{ type: 'text', text: 'Error: boom' }]

describe('ToolResult', () => {
  it('narrows on ok to a success with a value and no error', () => {
    if (result.ok) {
      expectTypeOf(result).toEqualTypeOf<ToolSuccess>()
      expectTypeOf(result.value).toEqualTypeOf<JsonValue>()
      expectTypeOf(result.error).toEqualTypeOf<undefined>()
    }
  })

  it('narrows on !ok to a failure with an error, content and no value', () => {
    if (!result.ok) {
      expectTypeOf(result).toEqualTypeOf<ToolFailure>()
      expectTypeOf(result.error).toEqualTypeOf<ToolErrorInfo>()
      expectTypeOf(result.content).toEqualTypeOf<readonly ContentPart[]>()
      expectTypeOf(result.value).toEqualTypeOf<undefined>()
    }
  })

  it('does not let a failure be read as a value', () => {
    if (!result.ok) {
      // @ts-expect-error a failure has no value to use
      const value: JsonValue = result.value
      void value
    }
  })

  it('does not let an unnarrowed result be read as a value or an error', () => {
    // @ts-expect-error the result may be a failure
    const value: JsonValue = result.value
    // @ts-expect-error the result may be a success
    const info: ToolErrorInfo = result.error
    void value
    void info
  })

  it('refuses a result that is both, or neither', () => {
    const settled = { id: 'call-1', name: 'add', content, durationMs: 1 }
    // @ts-expect-error a failure carries no value
    const failedWithValue: ToolResult = { ...settled, ok: false, error, value: 1 }
    // @ts-expect-error a success carries no error
    const succeededWithError: ToolResult = { ...settled, ok: true, value: 1, error }
    // @ts-expect-error a success has a value
    const succeededWithoutValue: ToolResult = { ...settled, ok: true }
    // @ts-expect-error a failure has an error
    const failedWithoutError: ToolResult = { ...settled, ok: false }
    void [failedWithValue, succeededWithError, succeededWithoutValue, failedWithoutError]
  })
})

describe('CallOutcome', () => {
  it('narrows on ok the same way', () => {
    if (outcome.ok) {
      expectTypeOf(outcome).toEqualTypeOf<CallSuccess>()
      expectTypeOf(outcome.value).toEqualTypeOf<JsonValue>()
    } else {
      expectTypeOf(outcome).toEqualTypeOf<CallFailure>()
      expectTypeOf(outcome.error).toEqualTypeOf<ToolErrorInfo>()
      // @ts-expect-error a failure has no value to use
      const value: JsonValue = outcome.value
      void value
    }
  })

  it('is what a settled result is, less the id, name and duration', () => {
    expectTypeOf<ToolSuccess>().toExtend<CallSuccess>()
    expectTypeOf<ToolFailure>().toExtend<CallFailure>()
    // @ts-expect-error a failure outcome has no model content yet: the pipeline renders it
    expectTypeOf<CallFailure>().toHaveProperty('content')
  })
})
