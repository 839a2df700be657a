import { describe, expect, it } from 'vitest'
import { MAX_URI_TEMPLATE_LENGTH, templatePattern } from './resource-template-match.js'

describe('templatePattern', () => {
  it('matches what a template expands to, and nothing across a path segment', () => {
    const pattern = templatePattern('test://template/{id}/data')
    expect(pattern?.test('test://template/123/data')).toBe(true)
    expect(pattern?.test('test://template/1/2/data')).toBe(false)
    expect(pattern?.test('test://template/123/data/more')).toBe(false)
    expect(pattern?.test('other://template/123/data')).toBe(false)
  })

  it('reads the reserved, path and query operators', () => {
    expect(templatePattern('file:///{+path}')?.test('file:///a/b/c.txt')).toBe(true)
    expect(templatePattern('repo://{owner}{/name}')?.test('repo://me/project')).toBe(true)
    expect(templatePattern('search://items{?q,page}')?.test('search://items?q=x&page=2')).toBe(true)
    expect(templatePattern('search://items{?q,page}')?.test('search://items')).toBe(true)
  })

  it('treats regex syntax in the literal parts as text', () => {
    const pattern = templatePattern('a.b://(x)|{id}')
    expect(pattern?.test('a.b://(x)|7')).toBe(true)
    expect(pattern?.test('aXb://(x)|7')).toBe(false)
  })

  it('refuses an unclosed expression and an over-long template', () => {
    expect(templatePattern('test://{id')).toBeUndefined()
    expect(templatePattern(`test://${'a'.repeat(MAX_URI_TEMPLATE_LENGTH)}`)).toBeUndefined()
  })

  it('matches a hostile template of many adjacent expressions in linear time', () => {
    const pattern = templatePattern(`x://${'{+a}'.repeat(40)}!`)
    const started = performance.now()
    expect(pattern?.test(`x://${'a'.repeat(4000)}`)).toBe(false)
    // A backtracking engine takes far longer than this on 40 adjacent `[^?#]*` against 4,000 characters.
    expect(performance.now() - started).toBeLessThan(2000)
  })
})
