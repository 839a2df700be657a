import { describe, expect, it } from 'vitest'
import { createBearerCheck, generateToken, MIN_TOKEN_LENGTH } from './bearer-auth.js'

describe('createBearerCheck', () => {
  const token = 'a-fixed-token-of-enough-length'
  const check = createBearerCheck(token)

  it('accepts exactly the token, with the scheme in any case', () => {
    expect(check(`Bearer ${token}`)).toBe(true)
    expect(check(`bearer ${token}`)).toBe(true)
  })

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['another scheme', `Basic ${token}`],
    ['no scheme', token],
    ['a prefix', `Bearer ${token.slice(0, -1)}`],
    ['longer', `Bearer ${token}x`],
    ['two tokens', `Bearer ${token} ${token}`],
    ['the scheme alone', 'Bearer '],
  ])('refuses %s', (_case, header) => {
    expect(check(header)).toBe(false)
  })

  it('refuses tokens short enough to guess', () => {
    expect(() => createBearerCheck('short')).toThrow(
      `auth.token must be at least ${MIN_TOKEN_LENGTH} characters (got 5)`,
    )
  })

  it('compares digests of equal length, so a wrong length is no faster to refuse', () => {
    // Not a timing measurement: that would be flaky. What makes it constant-time is that timingSafeEqual, which
    // throws on unequal lengths, is handed 32-byte digests whatever was sent; a 10 kB header must not throw.
    expect(check(`Bearer ${'x'.repeat(10_000)}`)).toBe(false)
    expect(check('Bearer x')).toBe(false)
  })
})

describe('generateToken', () => {
  it('makes 43 url-safe characters, different each time', () => {
    const tokens = new Set(Array.from({ length: 50 }, generateToken))
    expect(tokens.size).toBe(50)
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })
})
