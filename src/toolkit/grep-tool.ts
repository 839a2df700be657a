import { readFile, stat } from 'node:fs/promises'
import { defineTool } from '../definition/define-tool.js'
import { patternRisk } from '../json-schema/pattern-risk.js'
import { globToRegExp } from './glob-pattern.js'
import { walkFiles } from './walk-files.js'
import { failure, type Workspace } from './workspace.js'

const DEFAULT_MAX_RESULTS = 100
const MAX_FILE_BYTES = 5 * 1024 * 1024
/** A screened pattern is at most quadratic in the line it runs on; this keeps one line from stalling the host. */
const MAX_MATCHED_LINE_CHARACTERS = 16 * 1024

export type GrepMatch = {
  path: string
  /** 1-based. */
  line: number
  text: string
  before: string[]
  after: string[]
}

export type GrepValue = {
  matches: GrepMatch[]
  filesSearched: number
  truncated: boolean
}

/** Searches file contents line by line with a regular expression. */
export function grepTool(workspace: Workspace) {
  return defineTool({
    name: 'grep',
    description:
      'Search text files in the workspace for lines matching a JavaScript regular expression. Returns each matching line with its path, line number and optional context lines. Binary files and files over 5 MB are skipped; a line is matched on its first 16 K characters.',
    parameters: {
      pattern: {
        type: 'string',
        required: true,
        description: 'JavaScript regular expression, for example "TODO|FIXME"',
      },
      path: {
        type: 'string',
        description: 'File or directory to search, relative to the workspace root (default ".")',
      },
      glob: { type: 'string', description: 'Only search files matching this glob, for example "*.ts"' },
      ignoreCase: { type: 'boolean', description: 'Case-insensitive matching (default false)' },
      context: {
        type: 'integer',
        minimum: 0,
        maximum: 20,
        description: 'Lines of context before and after (default 0)',
      },
      maxResults: {
        type: 'integer',
        minimum: 1,
        description: `Stop after this many matching lines (default ${DEFAULT_MAX_RESULTS})`,
      },
    },
    output: {
      schema: {
        type: 'object',
        properties: {
          matches: {
            required: true,
            type: 'array',
            items: {
              type: 'object',
              properties: {
                path: { type: 'string', required: true },
                line: { type: 'integer', required: true },
                text: { type: 'string', required: true },
                before: { type: 'array', items: { type: 'string' }, required: true },
                after: { type: 'array', items: { type: 'string' }, required: true },
              },
            },
          },
          filesSearched: { type: 'integer', required: true },
          truncated: { type: 'boolean', description: 'True when maxResults stopped the search', required: true },
        },
      },
      render: (_args, value) => [{ type: 'text', text: renderMatches(value) }],
    },
    executionMode: 'parallel',
    annotations: { readOnlyHint: true },
    async execute(args, exec): Promise<GrepValue> {
      const expression = compile(args.pattern, args.ignoreCase === true)
      const filter = args.glob === undefined ? undefined : globToRegExp(args.glob)
      const start = await workspace.resolve(args.path ?? '.', 'read')
      const context = args.context ?? 0
      const maxResults = args.maxResults ?? DEFAULT_MAX_RESULTS
      const matches: GrepMatch[] = []
      let filesSearched = 0
      for await (const file of await filesUnder(start, exec.signal)) {
        if (filter !== undefined && !filter.test(file.relative)) continue
        const lines = await readLines(file.absolute, exec.signal)
        if (lines === undefined) continue
        filesSearched++
        for (const [index, text] of lines.entries()) {
          const matched = text.length > MAX_MATCHED_LINE_CHARACTERS ? text.slice(0, MAX_MATCHED_LINE_CHARACTERS) : text
          if (!expression.test(matched)) continue
          if (matches.length === maxResults) return { matches, filesSearched, truncated: true }
          matches.push({
            path: workspace.display(file.absolute),
            line: index + 1,
            text,
            before: lines.slice(Math.max(0, index - context), index),
            after: context === 0 ? [] : lines.slice(index + 1, index + 1 + context),
          })
        }
      }
      return { matches, filesSearched, truncated: false }
    },
  })
}

function compile(pattern: string, ignoreCase: boolean): RegExp {
  const risk = patternRisk(pattern)
  if (risk !== undefined) {
    throw failure(
      `the regular expression "${pattern}" could backtrack for minutes (${risk}); search with a simpler pattern, for example without a repeated group around a repeat`,
    )
  }
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '')
  } catch (error) {
    throw failure(`invalid regular expression "${pattern}": ${(error as Error).message}`)
  }
}

async function filesUnder(start: string, signal: AbortSignal) {
  const stats = await stat(start)
  if (stats.isDirectory()) return walkFiles(start, signal)
  const name = start.slice(start.lastIndexOf('/') + 1)
  return [{ absolute: start, relative: name }]
}

async function readLines(absolute: string, signal: AbortSignal): Promise<string[] | undefined> {
  const stats = await stat(absolute)
  if (stats.size > MAX_FILE_BYTES) return undefined
  const buffer = await readFile(absolute, { signal })
  if (buffer.subarray(0, 8192).includes(0)) return undefined
  return buffer
    .toString('utf8')
    .replace(/\r?\n$/, '')
    .split(/\r?\n/)
}

function renderMatches(value: GrepValue): string {
  if (value.matches.length === 0) return `no matches in ${value.filesSearched} files`
  const blocks = value.matches.map((match) => {
    const before = match.before.map(
      (text, index) => `${match.path}-${match.line - match.before.length + index}-${text}`,
    )
    const after = match.after.map((text, index) => `${match.path}-${match.line + 1 + index}-${text}`)
    return [...before, `${match.path}:${match.line}:${match.text}`, ...after].join('\n')
  })
  const separator = value.matches.some((match) => match.before.length + match.after.length > 0) ? '\n--\n' : '\n'
  const more = value.truncated ? '\n(stopped at maxResults; narrow the pattern or raise maxResults)' : ''
  return blocks.join(separator) + more
}
