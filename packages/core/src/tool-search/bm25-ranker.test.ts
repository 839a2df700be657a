import { describe, expect, it } from 'vitest'
import type { AnyToolDefinition } from '../definition/tool-definition.js'
import { realCorpus, type SearchCorpus, tenfoldCorpus } from './__fixtures__/search-corpus.js'
import { Bm25Index } from './bm25-ranker.js'
import { searchDocument } from './search-document.js'

function recallPerList(corpus: SearchCorpus): Record<string, number> {
  const index = new Bm25Index(corpus.definitions.map(searchDocument))
  const tallies: Record<string, { hits: number; total: number }> = {}
  for (const query of corpus.queries) {
    const tally = tallies[query.list] ?? { hits: 0, total: 0 }
    tallies[query.list] = tally
    tally.total++
    if (index.rank(query.query, 5).includes(query.expected)) tally.hits++
  }
  return Object.fromEntries(Object.entries(tallies).map(([list, { hits, total }]) => [list, hits / total]))
}

describe('BM25 ranking', () => {
  it('has one query per real tool', () => {
    const corpus = realCorpus()
    expect(corpus.queries).toHaveLength(129)
    expect(new Set(corpus.queries.map((query) => query.expected))).toEqual(
      new Set(corpus.definitions.map((definition) => definition.name)),
    )
  })

  it.each([
    ['129 real tools', realCorpus],
    ['1,290 tools under ten prefixes', tenfoldCorpus],
  ])('%s: the meant tool is in the top 5 for at least 95 percent of the queries of every list', (_label, corpus) => {
    for (const [list, recall] of Object.entries(recallPerList(corpus()))) {
      expect({ list, recall: recall >= 0.95 }).toEqual({ list, recall: true })
    }
  })

  it('is deterministic: equal scores are ordered by name, whatever the registration order', () => {
    const tool = (name: string): AnyToolDefinition =>
      Object.freeze({ name, description: 'Read a file.', parameters: { type: 'object' as const }, execute: () => 1 })
    const names = ['c__read', 'a__read', 'b__read']
    const forwards = new Bm25Index(names.map((name) => searchDocument(tool(name))))
    const backwards = new Bm25Index([...names].reverse().map((name) => searchDocument(tool(name))))
    expect(forwards.rank('read a file', 5)).toEqual(['a__read', 'b__read', 'c__read'])
    expect(backwards.rank('read a file', 5)).toEqual(forwards.rank('read a file', 5))
  })

  it('returns nothing for a query that shares no term, and never more than the limit', () => {
    const index = new Bm25Index(realCorpus().definitions.map(searchDocument))
    expect(index.rank('zzzz qqqq', 5)).toEqual([])
    expect(index.rank('file', 3)).toHaveLength(3)
  })

  it('reads a bounded part of a hostile definition', () => {
    const huge: AnyToolDefinition = Object.freeze({
      name: 'huge__tool',
      description: 'word '.repeat(2_000_000),
      parameters: {
        type: 'object' as const,
        properties: Object.fromEntries(
          Array.from({ length: 100_000 }, (_, index) => [`p${index}`, { type: 'string' as const }]),
        ),
      },
      execute: () => 1,
    })
    const started = performance.now()
    const document = searchDocument(huge)
    expect(document.parameters.length).toBeLessThanOrEqual(64)
    expect(document.description.length).toBeLessThanOrEqual(512)
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
