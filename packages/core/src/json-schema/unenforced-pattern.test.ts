import { describe, expect, it } from 'vitest'
import { unenforcedPattern } from './unenforced-pattern.js'

describe('unenforcedPattern', () => {
  it('finds a pattern the linear engine cannot run, with its path and why', () => {
    expect(unenforcedPattern({ type: 'object', properties: { 'a/b': { type: 'string', pattern: '^(?!x)' } } })).toEqual(
      {
        path: '/properties/a~1b',
        pattern: '^(?!x)',
        reason: 'lookahead and lookbehind assertions are not supported by the linear regex engine',
      },
    )
    expect(unenforcedPattern({ propertyNames: { pattern: '(a)\\1' } })).toMatchObject({ path: '/propertyNames' })
  })

  it('passes schemas whose patterns all run, and leaves other compile failures to the compiler', () => {
    expect(unenforcedPattern({ type: 'string', pattern: '^[a-z]+(\\.[a-z]+)*$' })).toBeUndefined()
    expect(unenforcedPattern({ type: 'string', pattern: '(' })).toBeUndefined()
    expect(unenforcedPattern(true)).toBeUndefined()
  })
})
