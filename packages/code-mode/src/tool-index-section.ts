import { byteLength } from 'qilin-tools/internal/definition/byte-length.js'
import type { PromptSection } from 'qilin-tools/internal/registry/tool-schema.js'
import { serverPrefix } from 'qilin-tools/internal/tool-search/search-document.js'
import { toolSummary } from 'qilin-tools/internal/tool-search/tool-summary.js'
import type { PtcIndexEntry, PtcLanguage, PtcToolIndex } from './ptc-port.js'

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
  readonly heading: string
  readonly tools: readonly PtcIndexEntry[]
}

/** A tool's part at each level, and its size, computed once per indexed tool. */
interface ToolParts {
  readonly local: string
  readonly localBytes: number
  readonly line: string
  readonly lineBytes: number
}

const parts = new WeakMap<PtcIndexEntry, ToolParts>()

function partsOf(tool: PtcIndexEntry, prefix: string): ToolParts {
  let found = parts.get(tool)
  if (found === undefined) {
    const local = tool.name.slice(prefix.length)
    const summary = toolSummary(tool)
    const line = `  ${local}${summary === '' ? '' : ` - ${summary}`}`
    found = { local, localBytes: byteLength(local), line, lineBytes: byteLength(line) }
    parts.set(tool, found)
  }
  return found
}

interface Level {
  /** Bytes each tool takes at least at this level: past `budget / minimum` tools it cannot fit, unmeasured. */
  readonly minimum: number
  size(groups: readonly Group[]): number
  render(groups: readonly Group[]): string
}

/** Bytes a tool takes at least when the index shows its name: `a, `. */
const NAMES_MINIMUM = 3

/** Each level says less than the one before; the first whose size fits is rendered. */
const levels: readonly Level[] = [
  {
    minimum: 4,
    size: (groups) =>
      groups.reduce(
        (sum, group) =>
          group.tools.reduce((inner, tool) => inner + 1 + partsOf(tool, group.prefix).lineBytes, sum) +
          byteLength(group.heading) +
          2,
        -1,
      ),
    render: (groups) =>
      groups
        .flatMap((group) => [`${group.heading}:`, ...group.tools.map((tool) => partsOf(tool, group.prefix).line)])
        .join('\n'),
  },
  {
    minimum: NAMES_MINIMUM,
    size: (groups) =>
      groups.reduce(
        (sum, group) =>
          group.tools.reduce((inner, tool) => inner + 2 + partsOf(tool, group.prefix).localBytes, sum) +
          byteLength(group.heading),
        0,
      ),
    render: (groups) =>
      groups
        .map((group) => `${group.heading}: ${group.tools.map((tool) => partsOf(tool, group.prefix).local).join(', ')}`)
        .join('\n'),
  },
  {
    minimum: 0,
    size: (groups) => groups.reduce((sum, group) => sum + 2 + byteLength(group.heading), -2),
    render: (groups) => groups.map((group) => group.heading).join(', '),
  },
]

/**
 * The index of the tools the SDK leaves to search, grouped by server prefix: names with summaries when they fit
 * in `MAX_INDEX_BYTES`, else names only, else the prefixes and their counts, cut to fit.
 */
export function toolIndexSection(index: PtcToolIndex, language: PtcLanguage): PromptSection {
  const intro = `## More tools, found by search

${index.tools.length} more tools can be called in programs but are not declared above. Find them with \`${calls[language].search}\` (print the \`declarations\` it returns) or read one by name with \`${calls[language].describe}\`; a tool found this way can be called in the same program. Names are \`<prefix>__<tool>\`.

`
  const budget = MAX_INDEX_BYTES - byteLength(intro)
  const count = index.tools.length
  // Past what names alone could fit, only the prefixes and their counts are shown, and those are kept counted.
  const groups =
    count * NAMES_MINIMUM > budget
      ? index.prefixes().map(({ prefix, count: size }) => ({ prefix, heading: heading(prefix, size), tools: [] }))
      : groupByPrefix(index.tools)
  const level = levels.find((candidate) => count * candidate.minimum <= budget && candidate.size(groups) <= budget)
  const body = level === undefined ? cut(groups, budget) : level.render(groups)
  return { id: INDEX_SECTION_ID, order: INDEX_SECTION_ORDER, text: `${intro}${body}\n`, interpolate: false }
}

/**
 * Tools sorted by name keep each prefix together (every name starting `github__` sorts in one run), so one pass
 * groups them; names without a prefix may fall anywhere and gather in their own group.
 */
function groupByPrefix(tools: readonly PtcIndexEntry[]): Group[] {
  const groups = new Map<string, PtcIndexEntry[]>()
  let key = ''
  let run: PtcIndexEntry[] | undefined
  for (const tool of tools) {
    if (run === undefined || key === '' || !tool.name.startsWith(key)) {
      const prefix = serverPrefix(tool.name)
      key = prefix === undefined ? '' : `${prefix}__`
      run = groups.get(key)
      if (run === undefined) {
        run = []
        groups.set(key, run)
      }
    }
    run.push(tool)
  }
  return [...groups.keys()].sort(compare).map((prefix) => {
    const list = groups.get(prefix) ?? []
    return { prefix, heading: heading(prefix, list.length), tools: list }
  })
}

function heading(prefix: string, count: number): string {
  return `${prefix === '' ? '(no prefix)' : prefix} (${count})`
}

function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0
}

/** The prefixes that fit, then how many were left out. */
function cut(groups: readonly Group[], budget: number): string {
  const shown: string[] = []
  let bytes = 0
  for (const [position, group] of groups.entries()) {
    const rest = `, and ${groups.length - position} more prefixes`
    if (bytes + byteLength(group.heading) + 2 + byteLength(rest) > budget) return `${shown.join(', ')}${rest}`
    shown.push(group.heading)
    bytes += byteLength(group.heading) + 2
  }
  return shown.join(', ')
}
