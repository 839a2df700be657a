import { isInvalidArgumentError } from 'qilin-tools/internal/errors/invalid-argument-error.js'
import { describe, expect, it } from 'vitest'
import { byteLimitOption, formatBytes } from './file-limits.js'

describe('byteLimitOption', () => {
  it('takes the default when unset and a whole number of bytes when set', () => {
    expect(byteLimitOption(undefined, 'x maxBytes', 10)).toBe(10)
    expect(byteLimitOption(1, 'x maxBytes', 10)).toBe(1)
  })

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 30 + 1])('refuses %s, naming the option', (value) => {
    let thrown: unknown
    try {
      byteLimitOption(value, 'grep maxFileBytes', 10)
    } catch (error) {
      thrown = error
    }
    expect(isInvalidArgumentError(thrown)).toBe(true)
    expect((thrown as Error).message).toBe(
      `grep maxFileBytes must be a whole number of bytes from 1 to 1073741824, not ${value}`,
    )
  })
})

describe('formatBytes', () => {
  it('shows whole mebibytes as MB and anything else in bytes', () => {
    expect([formatBytes(5 * 1024 * 1024), formatBytes(1000)]).toEqual(['5 MB', '1000 bytes'])
  })
})
