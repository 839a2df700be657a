import type { JsonSchemaObject } from '../json-schema/node.js'

/** One tool as a ranker sees it: what the model would read of it. */
export interface RankableTool {
  readonly name: string
  readonly description: string
  readonly parameters: JsonSchemaObject
}

/** One search for a host ranker: the query, how many names to return, the tools to choose from and a deadline. */
export interface RankRequest {
  readonly query: string
  readonly limit: number
  readonly tools: readonly RankableTool[]
  /** Aborted at the search's deadline or when its call is cancelled; the search fails then. */
  readonly signal: AbortSignal
}

/**
 * A host's own ranking (embeddings, say) in place of the built-in BM25: the names of the best tools, best first.
 * Names it returns that are not among `tools`, repeats and those past `limit` are dropped.
 */
export type ToolRanker = (request: RankRequest) => readonly string[] | Promise<readonly string[]>
