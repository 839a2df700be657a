import { describe, expect, it } from 'vitest'
import { jsonValueProblem } from './lossless-json.js'

function nested(levels: number, inner: unknown = 1): unknown {
  let value = inner
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? [value] : { a: value }
  return value
}

describe('jsonValueProblem', () => {
  it('counts arrays and objects at the edge, the root as level 1', () => {
    expect(jsonValueProblem(nested(64), 64)).toBeUndefined()
    expect(jsonValueProblem(nested(65), 64)).toBe('too-deep')
    expect(jsonValueProblem({}, 0)).toBe('too-deep')
    expect(jsonValueProblem('flat', 0)).toBeUndefined()
  })

  it('walks a hostile depth iteratively and stops at the limit', () => {
    let deep: unknown = {}
    for (let level = 0; level < 100_000; level++) deep = { a: deep }
    expect(jsonValueProblem(deep, 64)).toBe('too-deep')
  })

  it('finds numbers JSON cannot carry anywhere, and non-JSON values', () => {
    expect(jsonValueProblem(JSON.parse('{"a":[1,{"b":1e400}]}'), 64)).toBe('not-lossless')
    expect(jsonValueProblem(Number.NaN, 64)).toBe('not-lossless')
    expect(jsonValueProblem({ a: undefined }, 64)).toBe('not-lossless')
    expect(jsonValueProblem({ a: () => 1 }, 64)).toBe('not-lossless')
    expect(jsonValueProblem({ a: [null, true, 'x', -0, 2 ** 60] }, 64)).toBeUndefined()
  })

  it('checks scalars in every container, not only the root', () => {
    expect(jsonValueProblem({ a: 1, b: { c: [1, { d: Number.NaN }] } }, 64)).toBe('not-lossless')
    expect(jsonValueProblem([[[[1]]], { a: [undefined] }], 64)).toBe('not-lossless')
    expect(jsonValueProblem({ a: 1, b: { c: [1, { d: 2 }] } }, 64)).toBeUndefined()
  })

  it('reports too-deep over not-lossless, wherever each sits', () => {
    expect(jsonValueProblem([Number.POSITIVE_INFINITY, nested(70)], 64)).toBe('too-deep')
    expect(jsonValueProblem([nested(70), Number.POSITIVE_INFINITY], 64)).toBe('too-deep')
  })
})
