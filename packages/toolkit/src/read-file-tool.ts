import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { readWithinLimit } from './file-content.js'
import { byteLimitOption, DEFAULT_FILE_BYTES } from './file-limits.js'
import { lineWindow } from './line-window.js'
import { openRegularFile } from './open-regular-file.js'
import { failure, type Workspace } from './workspace.js'

const DEFAULT_LIMIT = 2000
/** The most lines one call returns whatever `limit` asks, so numbering them for the model stays a small job. */
const MAX_WINDOW_LINES = 100_000

/** The file size limit of `read_file`. */
export interface ReadFileToolOptions {
  /** The largest file read_file opens, in bytes (default 10 MiB); larger ones are refused before any byte is read. */
  readonly maxBytes?: number
}

/** What `read_file` returns: the lines read, where they sit in the file, and whether they were cut. */
export type ReadFileValue = {
  path: string
  content: string
  startLine: number
  endLine: number
  totalLines: number
  truncated: boolean
}

/** Reads a text file, a window of lines at a time; the model sees the lines numbered. */
export function readFileTool(workspace: Workspace, options: ReadFileToolOptions = {}) {
  const limit = {
    maxBytes: byteLimitOption(options.maxBytes, 'read_file maxBytes', DEFAULT_FILE_BYTES),
    advice: '; read_file cannot open files this large (grep finds lines in files up to its own limit)',
  }
  return defineTool({
    name: 'read_file',
    description:
      'Read a text file in the workspace. Returns up to `limit` lines starting at line `offset` (1-based); the model sees them numbered, a program gets the raw text.',
    parameters: {
      path: { type: 'string', required: true, description: 'File path relative to the workspace root' },
      offset: { type: 'integer', minimum: 1, description: 'First line to read, 1-based (default 1)' },
      limit: { type: 'integer', minimum: 1, description: `Maximum number of lines (default ${DEFAULT_LIMIT})` },
    },
    output: {
      schema: {
        type: 'object',
        properties: {
          path: { type: 'string', required: true },
          content: { type: 'string', description: 'The lines read, joined by newlines', required: true },
          startLine: { type: 'integer', required: true },
          endLine: { type: 'integer', required: true },
          totalLines: { type: 'integer', required: true },
          truncated: { type: 'boolean', description: 'True when the file has lines after endLine', required: true },
        },
      },
      render: (_args, value) => [{ type: 'text', text: renderNumbered(value) }],
    },
    executionMode: 'parallel',
    annotations: { readOnlyHint: true },
    async execute(args, exec): Promise<ReadFileValue> {
      const absolute = await workspace.resolve(args.path, 'read')
      const file = await openRegularFile(workspace, absolute, args.path, 'read')
      let bytes: Buffer
      try {
        bytes = await readWithinLimit(file, args.path, limit, exec.signal)
      } finally {
        await file.handle.close()
      }
      if (bytes.subarray(0, 8192).includes(0))
        throw failure(`"${args.path}" is a binary file; use file_info for its size`)
      const startLine = args.offset ?? 1
      const window = await lineWindow(
        bytes,
        startLine,
        Math.min(args.limit ?? DEFAULT_LIMIT, MAX_WINDOW_LINES),
        exec.signal,
      )
      return {
        path: workspace.display(absolute),
        content: window.content,
        startLine,
        endLine: window.endLine,
        totalLines: window.totalLines,
        truncated: window.endLine < window.totalLines,
      }
    },
  })
}

function renderNumbered(value: ReadFileValue): string {
  if (value.totalLines === 0) return `${value.path} is empty`
  if (value.content === '' && value.startLine > value.totalLines) {
    return `${value.path} has ${value.totalLines} lines; offset ${value.startLine} is past the end`
  }
  const width = String(value.endLine).length
  const numbered = value.content
    .split('\n')
    .map((line, index) => `${String(value.startLine + index).padStart(width)}\t${line}`)
    .join('\n')
  const more = value.truncated
    ? `\n(${value.totalLines - value.endLine} more lines; continue with offset ${value.endLine + 1})`
    : ''
  return numbered + more
}
