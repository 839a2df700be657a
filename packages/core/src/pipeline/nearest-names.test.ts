import { describe, expect, it } from 'vitest'
import { boundedDistance, nearestNames } from './nearest-names.js'

describe('boundedDistance', () => {
  it('is the Levenshtein distance within the bound', () => {
    expect(boundedDistance('kitten', 'sitting', 5)).toBe(3)
    expect(boundedDistance('', 'abc', 5)).toBe(3)
    expect(boundedDistance('abc', '', 5)).toBe(3)
    expect(boundedDistance('same', 'same', 0)).toBe(0)
    expect(boundedDistance('flaw', 'lawn', 5)).toBe(2)
  })

  it('answers bound + 1 once the distance must exceed the bound', () => {
    expect(boundedDistance('kitten', 'sitting', 2)).toBe(3)
    expect(boundedDistance('abcdef', 'uvwxyz', 1)).toBe(2)
  })
})

describe('nearestNames', () => {
  it('orders by distance, then by name, and keeps at most the limit', () => {
    const names = ['read_files', 'read_file', 'rid_file', 'write_file', 'read_fil']
    expect(nearestNames('read_fle', names, 2, 3)).toEqual(['read_file', 'read_fil', 'read_files'])
    expect(nearestNames('read_fle', names, 0, 3)).toEqual([])
  })

  it('skips candidates whose length is out of reach and cuts a hostile name', () => {
    const started = performance.now()
    const found = nearestNames('a'.repeat(10_000_000), ['a'.repeat(64), 'a'.repeat(80)], 3, 3)
    expect(performance.now() - started).toBeLessThan(100)
    expect(found).toEqual(['a'.repeat(80)])
  })
})
