import { describe, expect, it } from 'vitest'
import { escapePointerToken, unescapePointerToken } from './json-pointer.js'

describe('JSON pointer tokens', () => {
  it('escapes ~ before / and round-trips any key', () => {
    expect(escapePointerToken('a/b~c')).toBe('a~1b~0c')
    expect(escapePointerToken('~1')).toBe('~01')
    expect(escapePointerToken(3)).toBe('3')
    expect(escapePointerToken('plain')).toBe('plain')
    for (const key of ['', '~', '/', '~0~1', 'a/~/b', '~01'])
      expect(unescapePointerToken(escapePointerToken(key))).toBe(key)
  })
})
