import { describe, expect, it } from 'vitest'
import { MAX_TERMS, searchTerms, stem } from './search-terms.js'
import { summarize } from './tool-summary.js'

describe('search terms', () => {
  it('splits snake, kebab and camel case, lowercases and drops stop words', () => {
    expect(searchTerms('get_pull_request API-get-users readMultipleFiles HTMLParser')).toEqual([
      'pull',
      'request',
      'api',
      'user',
      'read',
      'multipl',
      'fil',
      'html',
      'parser',
    ])
    expect(searchTerms('Show me the files in my folder')).toEqual(['show', 'fil', 'folder'])
  })

  it('folds the forms of a word together', () => {
    for (const [left, right] of [
      ['files', 'file'],
      ['relations', 'relation'],
      ['creation', 'create'],
      ['logging', 'log'],
      ['entities', 'entity'],
      ['searched', 'search'],
    ] as const) {
      expect(stem(left)).toBe(stem(right))
    }
  })

  it('reads a bounded part of a hostile text and treats every character as plain text', () => {
    const started = performance.now()
    expect(searchTerms('word '.repeat(1_000_000)).length).toBeLessThanOrEqual(MAX_TERMS)
    expect(searchTerms('(a+)+$ .* [ \\ ^$|*+?{}()[]')).toEqual([])
    expect(performance.now() - started).toBeLessThan(1000)
  })
})

describe('summaries', () => {
  it('take the first sentence on one line, cut at a word', () => {
    expect(summarize('Read a file.\nIt must exist.')).toBe('Read a file.')
    expect(summarize('  Lists   the\n\tfiles  ')).toBe('Lists the files')
    const long = summarize(`${'word '.repeat(60)}end.`)
    expect(long.length).toBeLessThanOrEqual(100)
    expect(long.endsWith('…')).toBe(true)
    expect(summarize('x'.repeat(10_000_000)).length).toBeLessThanOrEqual(100)
  })
})
