import { describe, expectTypeOf, it } from 'vitest'
import type { keywordEmitters } from './generated-keywords.js'
import type { SupportedKeyword } from './keywords.js'

describe('keywordEmitters', () => {
  it('has exactly one entry per keyword of the closure table', () => {
    expectTypeOf<keyof typeof keywordEmitters>().toEqualTypeOf<SupportedKeyword>()
  })
})
