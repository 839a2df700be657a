import { readFile } from 'node:fs/promises'
import { defineTool } from '../definition/define-tool.js'
import { failure, type Workspace } from './workspace.js'

const DEFAULT_LIMIT = 2000
const MAX_BYTES = 10 * 1024 * 1024

export type ReadFileValue = {
  path: string
  content: string
  startLine: number
  endLine: number
  totalLines: number
  truncated: boolean
}

/** Reads a text file, a window of lines at a time; the model sees the lines numbered. */
export function readFileTool(workspace: Workspace) {
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
      const text = await readText(absolute, args.path, exec.signal)
      const lines = text.length === 0 ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/)
      const startLine = args.offset ?? 1
      const window = lines.slice(startLine - 1, startLine - 1 + (args.limit ?? DEFAULT_LIMIT))
      const endLine = startLine + window.length - 1
      return {
        path: workspace.display(absolute),
        content: window.join('\n'),
        startLine,
        endLine,
        totalLines: lines.length,
        truncated: endLine < lines.length,
      }
    },
  })
}

async function readText(absolute: string, shown: string, signal: AbortSignal): Promise<string> {
  let buffer: Buffer
  try {
    buffer = await readFile(absolute, { signal })
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EISDIR') {
      throw failure(`"${shown}" is a directory; use list_directory to see its entries`)
    }
    throw error
  }
  if (buffer.length > MAX_BYTES) throw failure(`"${shown}" is ${buffer.length} bytes, over the ${MAX_BYTES} byte limit`)
  if (buffer.subarray(0, 8192).includes(0)) throw failure(`"${shown}" is a binary file; use file_info for its size`)
  return buffer.toString('utf8')
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
