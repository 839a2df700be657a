import { stat } from 'node:fs/promises'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { ENTRY_TYPES, type EntryType, entryType } from './entry-type.js'
import type { Workspace } from './workspace.js'

/** What `file_info` returns: the entry's kind, size and modification time. */
export type FileInfoValue = {
  path: string
  type: EntryType
  /** Bytes. */
  size: number
  /** ISO 8601. */
  modified: string
  /** Permission bits as an octal string, for example "644". */
  mode: string
}

/** Reports a path's kind, size in bytes, modification time and permissions. */
export function fileInfoTool(workspace: Workspace) {
  return defineTool({
    name: 'file_info',
    description:
      'Get the type, size in bytes, last modification time (ISO 8601) and permission bits of a workspace file or directory.',
    parameters: {
      path: { type: 'string', required: true, description: 'Path relative to the workspace root' },
    },
    output: {
      schema: {
        type: 'object',
        properties: {
          path: { type: 'string', required: true },
          type: { type: 'string', enum: ENTRY_TYPES, required: true },
          size: { type: 'integer', description: 'Bytes', required: true },
          modified: { type: 'string', description: 'ISO 8601 timestamp', required: true },
          mode: { type: 'string', description: 'Permission bits in octal, for example "644"', required: true },
        },
      },
    },
    executionMode: 'parallel',
    annotations: { readOnlyHint: true },
    async execute(args): Promise<FileInfoValue> {
      const absolute = await workspace.resolve(args.path, 'read')
      const stats = await stat(absolute)
      return {
        path: workspace.display(absolute),
        type: entryType(stats),
        size: stats.size,
        modified: stats.mtime.toISOString(),
        mode: (stats.mode & 0o777).toString(8),
      }
    },
  })
}
