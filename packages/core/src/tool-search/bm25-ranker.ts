import type { SearchDocument, SearchField } from './search-document.js'
import { searchFields } from './search-document.js'
import { searchTerms } from './search-terms.js'
import { expandQuery } from './synonyms.js'

/** How much a term counts in each field, relative to the description. */
const fieldWeights: Readonly<Record<SearchField, number>> = {
  prefix: 5,
  tool: 3,
  description: 1,
  parameters: 1.2,
  parameterText: 0.4,
}

/** BM25's term-frequency saturation and length normalisation. */
const k1 = 1.2
const b = 0.75

/** A term found only through a synonym counts this much. */
const synonymWeight = 0.5

interface Posting {
  readonly document: number
  /** Length-normalised, field-weighted frequency of the term in the document. */
  readonly weight: number
}

/**
 * BM25F over a fixed list of documents: terms weighted per field, lengths normalised per field, built once per
 * list. Ranking is deterministic: equal scores are ordered by name, code unit by code unit.
 */
export class Bm25Index {
  readonly #documents: readonly SearchDocument[]
  readonly #postings = new Map<string, Posting[]>()

  constructor(documents: readonly SearchDocument[]) {
    this.#documents = documents
    const averages = new Map<SearchField, number>()
    for (const field of searchFields) {
      const total = documents.reduce((sum, document) => sum + document[field].length, 0)
      averages.set(field, documents.length === 0 ? 1 : Math.max(1, total / documents.length))
    }
    documents.forEach((document, index) => {
      const weights = new Map<string, number>()
      for (const field of searchFields) {
        const terms = document[field]
        const norm = 1 - b + (b * terms.length) / (averages.get(field) ?? 1)
        const add = fieldWeights[field] / norm
        for (const term of terms) weights.set(term, (weights.get(term) ?? 0) + add)
      }
      for (const [term, weight] of weights) {
        let list = this.#postings.get(term)
        if (list === undefined) {
          list = []
          this.#postings.set(term, list)
        }
        list.push({ document: index, weight })
      }
    })
  }

  /** The names of the best `limit` documents for `query`, best first; documents sharing no term are left out. */
  rank(query: string, limit: number): string[] {
    const count = this.#documents.length
    const scores = new Float64Array(count)
    const touched: number[] = []
    for (const [term, boost] of queryWeights(query)) {
      const postings = this.#postings.get(term)
      if (postings === undefined) continue
      const idf = Math.log(1 + (count - postings.length + 0.5) / (postings.length + 0.5))
      for (const posting of postings) {
        if (scores[posting.document] === 0) touched.push(posting.document)
        scores[posting.document] =
          (scores[posting.document] ?? 0) + boost * idf * ((posting.weight * (k1 + 1)) / (posting.weight + k1))
      }
    }
    const names = (index: number) => this.#documents[index]?.name ?? ''
    return touched
      .sort((left, right) => {
        const difference = (scores[right] ?? 0) - (scores[left] ?? 0)
        if (difference !== 0) return difference
        const a = names(left)
        const c = names(right)
        return a < c ? -1 : a > c ? 1 : 0
      })
      .slice(0, limit)
      .map(names)
  }
}

/** Each distinct query term once (repeating a word does not stack), with synonyms at a lower weight. */
function queryWeights(query: string): Map<string, number> {
  const weights = new Map<string, number>()
  const terms = searchTerms(query)
  for (const term of terms) weights.set(term, 1)
  for (const synonym of expandQuery(terms)) if (!weights.has(synonym)) weights.set(synonym, synonymWeight)
  return weights
}
