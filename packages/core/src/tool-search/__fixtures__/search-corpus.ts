import { readFileSync } from 'node:fs'
import { loadMcpTools, mcpToolsetNames } from '@qilin-tools/code-mode/internal/__fixtures__/mcp-toolsets.js'
import type { AnyToolDefinition } from '../../definition/tool-definition.js'

/** One query per real tool, in a user's words, keyed by list and tool name. */
export const toolQueries = JSON.parse(readFileSync(new URL('./tool-queries.json', import.meta.url), 'utf8')) as Record<
  string,
  Record<string, string>
>

/** The ten organisations the 1,290-tool corpus registers every list under, once each. */
export const organisations = [
  'acme',
  'globex',
  'initech',
  'umbrella',
  'hooli',
  'stark',
  'wayne',
  'wonka',
  'tyrell',
  'cyberdyne',
] as const

/** One labelled query: what a user asked, the registered tool meant, and the list it came from. */
export interface LabelledQuery {
  readonly list: string
  readonly query: string
  readonly expected: string
}

export interface SearchCorpus {
  readonly definitions: readonly AnyToolDefinition[]
  readonly queries: readonly LabelledQuery[]
}

function definitionsOf(list: string, prefix: string): AnyToolDefinition[] {
  return loadMcpTools(list).map((tool) =>
    Object.freeze({
      name: `${prefix}__${tool.name}`,
      description: tool.description ?? '',
      parameters: tool.inputSchema,
      execute: () => ({ list, tool: tool.name }),
    }),
  )
}

/** The 129 real tools, each list under its own server prefix. */
export function realCorpus(): SearchCorpus {
  const lists = mcpToolsetNames()
  return {
    definitions: lists.flatMap((list) => definitionsOf(list, list)),
    queries: lists.flatMap((list) =>
      Object.entries(toolQueries[list] ?? {}).map(([tool, query]) => ({ list, query, expected: `${list}__${tool}` })),
    ),
  }
}

/** Every list under ten prefixes (`acme-github`, …): 1,290 tools; a query names the organisation it means. */
export function tenfoldCorpus(): SearchCorpus {
  const lists = mcpToolsetNames()
  return {
    definitions: organisations.flatMap((organisation) =>
      lists.flatMap((list) => definitionsOf(list, `${organisation}-${list}`)),
    ),
    queries: organisations.flatMap((organisation) =>
      lists.flatMap((list) =>
        Object.entries(toolQueries[list] ?? {}).map(([tool, query]) => ({
          list,
          query: `${organisation}: ${query}`,
          expected: `${organisation}-${list}__${tool}`,
        })),
      ),
    ),
  }
}
