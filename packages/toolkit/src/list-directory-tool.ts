import { lstat, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { ENTRY_TYPES, type EntryType, entryType } from './entry-type.js'
import { failure, type Workspace } from './workspace.js'

const MAX_ENTRIES = 1000

/** One entry `list_directory` reports: its name, kind and size. */
export type DirectoryEntry = {
  name: string
  type: EntryType
  /** Bytes; 0 for directories. */
  size: number
}

/** What `list_directory` returns: the entries and whether the list was cut. */
export type ListDirectoryValue = {
  path: string
  entries: DirectoryEntry[]
  truncated: boolean
}

/** Lists one directory's entries, sorted by name, with their kind and size. */
export function listDirectoryTool(workspace: Workspace) {
  return defineTool({
    name: 'list_directory',
    description: `List the entries of a workspace directory (not recursive), sorted by name, with type and size in bytes. At most ${MAX_ENTRIES} entries.`,
    parameters: {
      path: { type: 'string', description: 'Directory path relative to the workspace root (default ".")' },
    },
    output: {
      schema: {
        type: 'object',
        properties: {
          path: { type: 'string', required: true },
          entries: {
            required: true,
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string', required: true },
                type: { type: 'string', enum: ENTRY_TYPES, required: true },
                size: { type: 'integer', description: 'Bytes; 0 for directories', required: true },
              },
            },
          },
          truncated: { type: 'boolean', required: true },
        },
      },
      render: (_args, value) => [{ type: 'text', text: renderListing(value) }],
    },
    executionMode: 'parallel',
    annotations: { readOnlyHint: true },
    async execute(args, exec): Promise<ListDirectoryValue> {
      const shown = args.path ?? '.'
      const absolute = await workspace.resolve(shown, 'read')
      const stats = await lstat(absolute)
      if (!stats.isDirectory()) throw failure(`"${shown}" is not a directory; use read_file or file_info for files`)
      const names = (await readdir(absolute)).sort()
      const entries: DirectoryEntry[] = []
      for (const name of names.slice(0, MAX_ENTRIES)) {
        exec.signal.throwIfAborted()
        const entry = await lstat(join(absolute, name))
        const type = entryType(entry)
        entries.push({ name, type, size: type === 'directory' ? 0 : entry.size })
      }
      return { path: workspace.display(absolute), entries, truncated: names.length > MAX_ENTRIES }
    },
  })
}

function renderListing(value: ListDirectoryValue): string {
  if (value.entries.length === 0) return `${value.path} is empty`
  const lines = value.entries.map((entry) =>
    entry.type === 'directory'
      ? `${entry.name}/`
      : `${entry.name}${entry.type === 'symlink' ? ' -> (symlink)' : ''}  ${entry.size} bytes`,
  )
  return [...lines, ...(value.truncated ? [`(more than ${MAX_ENTRIES} entries; only the first are shown)`] : [])].join(
    '\n',
  )
}
