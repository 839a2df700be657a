import type { ToolRanker } from './tool-ranker.js'

/** When tool search replaces listing every tool, and how it ranks. */
export interface ToolSearchOptions {
  /** Search turns on in a scope that sees more than this many tools. @default 30 */
  readonly threshold?: number
  /** Ranks tools for a query in place of the built-in BM25 ranking. @default none */
  readonly ranker?: ToolRanker
  /** Milliseconds a host ranker may take before the search fails. @default 5000 */
  readonly rankerTimeoutMs?: number
}

export interface ResolvedToolSearch {
  readonly threshold: number
  readonly ranker: ToolRanker | undefined
  readonly rankerTimeoutMs: number
}

export const DEFAULT_SEARCH_THRESHOLD = 30

const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0
const isMs = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0

/** What is wrong with a `toolSearch` value, or undefined when it is `false` or valid options. */
export function toolSearchProblem(value: unknown): string | undefined {
  if (value === false) return undefined
  if (typeof value !== 'object' || value === null) return 'must be false or { threshold?, ranker?, rankerTimeoutMs? }'
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue
    if (key === 'threshold' && !isCount(item)) return 'threshold must be a non-negative integer'
    else if (key === 'ranker' && typeof item !== 'function') return 'ranker must be a function'
    else if (key === 'rankerTimeoutMs' && !isMs(item)) return 'rankerTimeoutMs must be a positive finite number of ms'
    else if (key !== 'threshold' && key !== 'ranker' && key !== 'rankerTimeoutMs') return `has no field ${key}`
  }
  return undefined
}

/** Undefined when search is off (`false`); checked beforehand with `toolSearchProblem`. */
export function resolveToolSearch(value: ToolSearchOptions | false | undefined): ResolvedToolSearch | undefined {
  if (value === false) return undefined
  return Object.freeze({
    threshold: value?.threshold ?? DEFAULT_SEARCH_THRESHOLD,
    ranker: value?.ranker,
    rankerTimeoutMs: value?.rankerTimeoutMs ?? 5000,
  })
}
