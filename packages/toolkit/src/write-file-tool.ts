import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { replaceContent } from './file-content.js'
import { byteLimitOption, DEFAULT_FILE_BYTES } from './file-limits.js'
import { openRegularFile } from './open-regular-file.js'
import { failure, type Workspace } from './workspace.js'

/** What `write_file` returns: the path, the bytes written, and whether the file is new. */
export type WriteFileValue = {
  path: string
  bytesWritten: number
  created: boolean
}

/** The size limit of `write_file`. */
export interface WriteFileToolOptions {
  /** The most bytes one write_file call writes (default 10 MiB); larger content is refused before anything is touched. */
  readonly maxBytes?: number
}

/** Creates or overwrites a regular file, creating missing parent directories inside the workspace. */
export function writeFileTool(workspace: Workspace, options: WriteFileToolOptions = {}) {
  const maxBytes = byteLimitOption(options.maxBytes, 'write_file maxBytes', DEFAULT_FILE_BYTES)
  return defineTool({
    name: 'write_file',
    description:
      'Create a file in the workspace or replace its whole content. Missing parent directories are created. To change part of a file, use edit_file.',
    parameters: {
      path: { type: 'string', required: true, description: 'File path relative to the workspace root' },
      content: { type: 'string', required: true, description: 'The complete new content' },
    },
    output: {
      schema: {
        type: 'object',
        properties: {
          path: { type: 'string', required: true },
          bytesWritten: { type: 'integer', required: true },
          created: { type: 'boolean', description: 'True when the file did not exist before', required: true },
        },
      },
    },
    executionMode: 'exclusive',
    annotations: { destructiveHint: true },
    async execute(args, exec): Promise<WriteFileValue> {
      const size = Buffer.byteLength(args.content)
      if (size > maxBytes) {
        throw failure(
          `content is ${size} bytes, over write_file's ${maxBytes} byte limit; nothing was written. Write less, or split it across several files`,
        )
      }
      const absolute = await workspace.resolve(args.path, 'write')
      await mkdir(dirname(absolute), { recursive: true })
      const file = await openRegularFile(workspace, absolute, args.path, 'replace')
      try {
        await replaceContent(file, Buffer.from(args.content), exec.signal)
      } finally {
        await file.handle.close()
      }
      return { path: workspace.display(absolute), bytesWritten: size, created: file.created }
    },
  })
}
