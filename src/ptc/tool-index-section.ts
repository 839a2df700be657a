import type { PtcIndexEntry, PtcLanguage, PtcToolIndex } from '../pipeline/ptc-port.js'
import type { PromptSection } from '../registry/tool-schema.js'
import { serverPrefix } from '../tool-search/search-document.js'
import { byteLength } from './byte-length.js'

export const INDEX_SECTION_ID = 'tools:index'
/** After the SDK section, so the SDK's bytes stay the same whatever is indexed. */
export const INDEX_SECTION_ORDER = 5100
/** The index text may take this many UTF-8 bytes; past it, it says less about each tool, then about each server. */
export const MAX_INDEX_BYTES = 3072

const calls: Readonly<Record<PtcLanguage, { readonly search: string; readonly describe: string }>> = {
  typescript: {
    search: 'await tools.search_tools({ query: "what you want to do" })',
    describe: 'await tools.describe_tool({ name: "<name>" })',
  },
  python: {
    search: 'await tools.search_tools(query="what you want to do")',
    describe: 'await tools.describe_tool(name="<name>")',
  },
}

interface Group {
  /** `github__`, or empty for names without a prefix. */
  readonly prefix: string
  readonly tools: readonly PtcIndexEntry[]
}

/** Each level says less than the one before; the first that fits is shown. */
const levels: readonly ((groups: readonly Group[]) => string[])[] = [
  (groups) =>
    groups.flatMap((group) => [
      `${heading(group)}:`,
      ...group.tools.map((tool) => `  ${local(group, tool)}${tool.summary === '' ? '' : ` - ${tool.summary}`}`),
    ]),
  (groups) => groups.map((group) => `${heading(group)}: ${group.tools.map((tool) => local(group, tool)).join(', ')}`),
  (groups) => [groups.map(heading).join(', ')],
]

/**
 * The index of the tools the SDK leaves to search, grouped by server prefix: names with summaries when they fit
 * in `MAX_INDEX_BYTES`, else names only, else the prefixes and their counts, cut to fit.
 */
export function toolIndexSection(index: PtcToolIndex, language: PtcLanguage): PromptSection {
  const intro = `## More tools, found by search

${index.tools.length} more tools can be called in programs but are not declared above. Find them with \`${calls[language].search}\` (print the \`declarations\` it returns) or read one by name with \`${calls[language].describe}\`; a tool found this way can be called in the same program. Names are \`<prefix>__<tool>\`.

`
  const groups = groupByPrefix(index.tools)
  const budget = MAX_INDEX_BYTES - byteLength(intro)
  let body: string | undefined
  for (const level of levels) {
    const text = level(groups).join('\n')
    if (byteLength(text) <= budget) {
      body = text
      break
    }
  }
  return {
    id: INDEX_SECTION_ID,
    order: INDEX_SECTION_ORDER,
    text: `${intro}${body ?? cut(groups, budget)}\n`,
    interpolate: false,
  }
}

function groupByPrefix(tools: readonly PtcIndexEntry[]): Group[] {
  const groups = new Map<string, PtcIndexEntry[]>()
  for (const tool of tools) {
    const prefix = serverPrefix(tool.name)
    const key = prefix === undefined ? '' : `${prefix}__`
    let group = groups.get(key)
    if (group === undefined) {
      group = []
      groups.set(key, group)
    }
    group.push(tool)
  }
  return [...groups]
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([prefix, list]) => ({ prefix, tools: list }))
}

function heading(group: Group): string {
  return `${group.prefix === '' ? '(no prefix)' : group.prefix} (${group.tools.length})`
}

function local(group: Group, tool: PtcIndexEntry): string {
  return tool.name.slice(group.prefix.length)
}

/** The prefixes that fit, then how many were left out. */
function cut(groups: readonly Group[], budget: number): string {
  const shown: string[] = []
  let bytes = 0
  for (const [position, group] of groups.entries()) {
    const part = heading(group)
    const rest = `, and ${groups.length - position} more prefixes`
    if (bytes + byteLength(part) + 2 + byteLength(rest) > budget) return `${shown.join(', ')}${rest}`
    shown.push(part)
    bytes += byteLength(part) + 2
  }
  return shown.join(', ')
}
