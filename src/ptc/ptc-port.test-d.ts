import { describe, expectTypeOf, it } from 'vitest'
import type { ToolErrorInfo } from '../errors/tool-error.js'
import type { JsonValue } from '../json-schema/json-value.js'
import type { CallOutcome } from '../pipeline/call.js'
import type { PtcRunFailure, PtcRunMetadata, PtcRunOutcome, PtcRunSuccess } from './ptc-port.js'

declare const outcome: PtcRunOutcome

describe('PtcRunOutcome', () => {
  it('is a call outcome, so the bridge hands it on as it is', () => {
    expectTypeOf<PtcRunOutcome>().toExtend<CallOutcome>()
    const handed: CallOutcome = outcome
    void handed
  })

  it('narrows on ok and always carries its run metadata', () => {
    expectTypeOf(outcome.metadata).toEqualTypeOf<PtcRunMetadata>()
    if (outcome.ok) {
      expectTypeOf(outcome).toEqualTypeOf<PtcRunSuccess>()
      expectTypeOf(outcome.value).toEqualTypeOf<JsonValue>()
    } else {
      expectTypeOf(outcome).toEqualTypeOf<PtcRunFailure>()
      expectTypeOf(outcome.error).toEqualTypeOf<ToolErrorInfo>()
      // @ts-expect-error a failed program has no value to use
      const value: JsonValue = outcome.value
      void value
    }
  })

  it('refuses an outcome without metadata', () => {
    // @ts-expect-error the runtime always reports sub-calls and bytes kept out
    const bare: PtcRunOutcome = { ok: true, value: null, content: [] }
    void bare
  })
})
