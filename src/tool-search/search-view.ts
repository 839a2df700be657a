import type { RegistryEntry } from '../registry/registry-entry.js'
import type { VisibleSet } from '../registry/scoped-registry.js'
import { Bm25Index } from './bm25-ranker.js'
import { searchDocument } from './search-document.js'
import type { ResolvedToolSearch } from './tool-search-options.js'

/** How one visible set splits under search: the tools always listed, and those that wait to be found. */
export interface SearchView {
  /** False when search is off or the set is at or under the threshold: then every tool is listed. */
  readonly active: boolean
  /** Sorted by name: the tools that declare `deferLoading: false`, or every tool when search is inactive. */
  readonly listed: readonly RegistryEntry[]
  /** Sorted by name: what only a search shows. */
  readonly deferred: readonly RegistryEntry[]
  /** The BM25 index over every visible tool, built on the first search. */
  index(): Bm25Index
}

const views = new WeakMap<VisibleSet, SearchView>()
const noTools: readonly RegistryEntry[] = Object.freeze([])

/** One view per visible set and options, so a scope whose tools did not change reuses it. */
export function searchView(visible: VisibleSet, search: ResolvedToolSearch | undefined): SearchView {
  let view = views.get(visible)
  if (view === undefined) {
    view = buildView(visible, search)
    views.set(visible, view)
  }
  return view
}

function buildView(visible: VisibleSet, search: ResolvedToolSearch | undefined): SearchView {
  let index: Bm25Index | undefined
  const indexOf = () => {
    index ??= new Bm25Index(visible.entries.map((entry) => searchDocument(entry.definition)))
    return index
  }
  if (search === undefined || visible.entries.length <= search.threshold) {
    return Object.freeze({ active: false, listed: visible.entries, deferred: noTools, index: indexOf })
  }
  const listed: RegistryEntry[] = []
  const deferred: RegistryEntry[] = []
  for (const entry of visible.entries) (entry.definition.deferLoading === false ? listed : deferred).push(entry)
  return Object.freeze({
    active: true,
    listed: Object.freeze(listed),
    deferred: Object.freeze(deferred),
    index: indexOf,
  })
}
