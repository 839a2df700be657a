import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { isToolError } from 'qilin-tools/internal/errors/tool-error.js'
import { compileLinearPattern, type LinearPattern } from 'qilin-tools/internal/json-schema/linear-regex.js'
import { readWithinLimit } from './file-content.js'
import { type ByteLimit, byteLimitOption, DEFAULT_GREP_FILE_BYTES, formatBytes } from './file-limits.js'
import { globMatcher } from './glob-pattern.js'
import { type GrepMatch, searchLines } from './grep-search.js'
import { openRegularFile } from './open-regular-file.js'
import { walkFiles } from './walk-files.js'
import { failure, type Workspace } from './workspace.js'

export type { GrepMatch } from './grep-search.js'

const DEFAULT_MAX_RESULTS = 100

/** What `grep` returns: the matches, how many files it searched, and whether it stopped early. */
export type GrepValue = {
  matches: GrepMatch[]
  filesSearched: number
  truncated: boolean
}

/** The file size limit of `grep`. */
export interface GrepToolOptions {
  /**
   * The largest file grep searches, in bytes (default 5 MiB): a directory search passes over larger files, a search
   * of one named file refuses it. Either way nothing past the limit is read.
   */
  readonly maxFileBytes?: number
}

/** Searches file contents line by line with a regular expression. */
export function grepTool(workspace: Workspace, options: GrepToolOptions = {}) {
  const limit: ByteLimit = {
    maxBytes: byteLimitOption(options.maxFileBytes, 'grep maxFileBytes', DEFAULT_GREP_FILE_BYTES),
    advice: '; grep cannot search files this large',
  }
  return defineTool({
    name: 'grep',
    description: `Search text files in the workspace for lines matching a JavaScript regular expression (no lookahead, lookbehind or backreferences). Returns each matching line with its path, line number and optional context lines. Binary files and files over ${formatBytes(limit.maxBytes)} are skipped; a line is matched on its first 16 K characters.`,
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
      const filter = args.glob === undefined ? undefined : globMatcher(args.glob)
      const start = await workspace.resolve(args.path ?? '.', 'read')
      const search = {
        expression,
        context: args.context ?? 0,
        maxResults: args.maxResults ?? DEFAULT_MAX_RESULTS,
        signal: exec.signal,
      }
      const matches: GrepMatch[] = []
      let filesSearched = 0
      const named = await namedFile(start)
      for await (const file of named
        ? [{ absolute: start, relative: basename(start) }]
        : walkFiles(start, exec.signal)) {
        if (filter !== undefined && !filter.test(file.relative)) continue
        const text = await readSearchable(workspace, file.absolute, named, limit, exec.signal)
        if (text === undefined) continue
        filesSearched++
        if (await searchLines(text, workspace.display(file.absolute), search, matches)) {
          return { matches, filesSearched, truncated: true }
        }
      }
      return { matches, filesSearched, truncated: false }
    },
  })
}

function compile(pattern: string, ignoreCase: boolean): LinearPattern {
  const compiled = compileLinearPattern(pattern, { ignoreCase, legacySyntax: true })
  if (compiled.ok) return compiled.pattern
  if (compiled.kind === 'invalid') throw failure(`invalid regular expression "${pattern}": ${compiled.reason}`)
  throw failure(`the regular expression "${pattern}" cannot run on grep's linear-time engine (${compiled.reason})`)
}

/** True when the search names one file rather than a directory to walk. */
async function namedFile(start: string): Promise<boolean> {
  return !(await stat(start)).isDirectory()
}

/**
 * A file's text, or undefined when the search passes over it: binary files always, and in a directory search
 * also files it may not open (too large, not a regular file, gone), which a named file is refused for instead.
 */
async function readSearchable(
  workspace: Workspace,
  absolute: string,
  named: boolean,
  limit: ByteLimit,
  signal: AbortSignal,
): Promise<string | undefined> {
  const shown = workspace.display(absolute)
  let bytes: Buffer
  try {
    const file = await openRegularFile(workspace, absolute, shown, 'read')
    try {
      bytes = await readWithinLimit(file, shown, limit, signal)
    } finally {
      await file.handle.close()
    }
  } catch (error) {
    if (named || !isToolError(error)) throw error
    return undefined
  }
  if (bytes.subarray(0, 8192).includes(0)) return undefined
  return bytes.toString('utf8')
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
