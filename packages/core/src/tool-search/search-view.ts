import type { RegistryEntry } from '../registry/registry-entry.js'
import { insertionPoint, type VisibleChange, type VisibleSet } from '../registry/scoped-registry.js'
import type { ToolSchema } from '../registry/tool-schema.js'
import { Bm25Index } from './bm25-ranker.js'
import { searchDocument, serverPrefix } from './search-document.js'
import type { ResolvedToolSearch } from './tool-search-options.js'

/** How many deferred tools share one server prefix (`github__`, or empty for names without one). */
export interface PrefixCount {
  readonly prefix: string
  readonly count: number
}

/** How one visible set splits under search: the tools always listed, and those that wait to be found. */
export interface SearchView {
  /** False when search is off or the set is at or under the threshold: then every tool is listed. */
  readonly active: boolean
  /** Sorted by name: the tools that declare `deferLoading: false`, or every tool when search is inactive. */
  readonly listed: readonly RegistryEntry[]
  /** Sorted by name: what only a search shows. */
  readonly deferred: readonly RegistryEntry[]
  /** The schemas of `deferred`, in the same order. */
  readonly deferredSchemas: readonly ToolSchema[]
  /** The deferred tools per prefix, sorted by prefix; counted on first use, then patched along with the view. */
  prefixes(): readonly PrefixCount[]
  /** The BM25 index over every visible tool, built on the first search. */
  index(): Bm25Index
}

const views = new WeakMap<VisibleSet, SearchView>()
/** The prefix counts a view has computed, so the next view patches them only when they exist. */
const counted = new WeakMap<SearchView, readonly PrefixCount[]>()

/** Counts on first use and remembers them; holds nothing of the view before, so no chain of old views stays alive. */
function lazyPrefixes(view: () => SearchView, count: () => readonly PrefixCount[]): () => readonly PrefixCount[] {
  return () => {
    const self = view()
    let prefixes = counted.get(self)
    if (prefixes === undefined) {
      prefixes = count()
      counted.set(self, prefixes)
    }
    return prefixes
  }
}
const noTools: readonly RegistryEntry[] = Object.freeze([])
const noSchemas: readonly ToolSchema[] = Object.freeze([])
const noPrefixes: readonly PrefixCount[] = Object.freeze([])

/**
 * One view per visible set. A set patched from another (one registration or disposal) gets the other's view
 * patched the same way: a binary search and a splice per list, not a pass over every tool.
 */
export function searchView(visible: VisibleSet, search: ResolvedToolSearch | undefined): SearchView {
  let view = views.get(visible)
  if (view === undefined) {
    const change = visible.change
    const previous = change === undefined ? undefined : views.get(change.previous)
    const active = search !== undefined && visible.entries.length > search.threshold
    view =
      change !== undefined && previous?.active === true && active
        ? patchView(visible, previous, change)
        : buildView(visible, active)
    views.set(visible, view)
  }
  return view
}

const isDeferred = (entry: RegistryEntry) => entry.definition.deferLoading !== false

function prefixKey(name: string): string {
  const prefix = serverPrefix(name)
  return prefix === undefined ? '' : `${prefix}__`
}

function bm25For(visible: VisibleSet): () => Bm25Index {
  let index: Bm25Index | undefined
  return () => {
    index ??= new Bm25Index(visible.entries.map((entry) => searchDocument(entry.definition)))
    return index
  }
}

function buildView(visible: VisibleSet, active: boolean): SearchView {
  if (!active) {
    return Object.freeze({
      active: false,
      listed: visible.entries,
      deferred: noTools,
      deferredSchemas: noSchemas,
      prefixes: () => noPrefixes,
      index: bm25For(visible),
    })
  }
  const listed: RegistryEntry[] = []
  const deferred: RegistryEntry[] = []
  const schemas: ToolSchema[] = []
  for (const entry of visible.entries) {
    if (isDeferred(entry)) {
      deferred.push(entry)
      schemas.push(entry.schema)
    } else listed.push(entry)
  }
  const view: SearchView = Object.freeze({
    active: true,
    listed: Object.freeze(listed),
    deferred: Object.freeze(deferred),
    deferredSchemas: Object.freeze(schemas),
    prefixes: lazyPrefixes(
      () => view,
      () => countPrefixes(deferred),
    ),
    index: bm25For(visible),
  })
  return view
}

/** Sorted names keep each prefix in one run, so counting is one pass; unprefixed names may fall anywhere. */
function countPrefixes(deferred: readonly RegistryEntry[]): readonly PrefixCount[] {
  const counts = new Map<string, number>()
  let key: string | undefined
  for (const entry of deferred) {
    if (key === undefined || key === '' || !entry.name.startsWith(key)) key = prefixKey(entry.name)
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return Object.freeze(
    [...counts.keys()]
      .sort((left, right) => (left < right ? -1 : left > right ? 1 : 0))
      .map((prefix) => Object.freeze({ prefix, count: counts.get(prefix) ?? 0 })),
  )
}

function patchView(visible: VisibleSet, previous: SearchView, change: VisibleChange): SearchView {
  const { name, before, after } = change
  let listed = previous.listed
  let deferred = previous.deferred
  let schemas = previous.deferredSchemas
  if (before !== undefined) {
    if (isDeferred(before)) {
      const at = insertionPoint(deferred, name)
      deferred = spliced(deferred, at, 1)
      schemas = spliced(schemas, at, 1)
    } else listed = spliced(listed, insertionPoint(listed, name), 1)
  }
  if (after !== undefined) {
    if (isDeferred(after)) {
      const at = insertionPoint(deferred, name)
      deferred = spliced(deferred, at, 0, after)
      schemas = spliced(schemas, at, 0, after.schema)
    } else listed = spliced(listed, insertionPoint(listed, name), 0, after)
  }
  const delta =
    (after !== undefined && isDeferred(after) ? 1 : 0) - (before !== undefined && isDeferred(before) ? 1 : 0)
  const known = counted.get(previous)
  const view: SearchView = Object.freeze({
    active: true,
    listed,
    deferred,
    deferredSchemas: schemas,
    prefixes: lazyPrefixes(
      () => view,
      () => countPrefixes(deferred),
    ),
    index: bm25For(visible),
  })
  if (known !== undefined) counted.set(view, delta === 0 ? known : recount(known, prefixKey(name), delta))
  return view
}

function spliced<Item>(list: readonly Item[], at: number, remove: number, ...insert: Item[]): readonly Item[] {
  const copy = list.slice()
  copy.splice(at, remove, ...insert)
  return Object.freeze(copy)
}

function recount(counts: readonly PrefixCount[], prefix: string, delta: number): readonly PrefixCount[] {
  const at = insertionPoint(
    counts.map((count) => ({ name: count.prefix })),
    prefix,
  )
  const found = counts[at]?.prefix === prefix ? counts[at] : undefined
  const count = (found?.count ?? 0) + delta
  const replacement = count > 0 ? [Object.freeze({ prefix, count })] : []
  return spliced(counts, at, found === undefined ? 0 : 1, ...replacement)
}
