import { mkdir, stat, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { defineTool } from '../definition/define-tool.js'
import { failure, isMissing, type Workspace } from './workspace.js'

export type WriteFileValue = {
  path: string
  bytesWritten: number
  created: boolean
}

/** Creates or overwrites a file, creating missing parent directories inside the workspace. */
export function writeFileTool(workspace: Workspace) {
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
      const absolute = await workspace.resolve(args.path, 'write')
      const created = await isAbsent(absolute, args.path)
      await mkdir(dirname(absolute), { recursive: true })
      await writeFile(absolute, args.content, { signal: exec.signal })
      return { path: workspace.display(absolute), bytesWritten: Buffer.byteLength(args.content), created }
    },
  })
}

async function isAbsent(absolute: string, shown: string): Promise<boolean> {
  try {
    const entry = await stat(absolute)
    if (entry.isDirectory()) throw failure(`"${shown}" is a directory; give a file path`)
    return false
  } catch (error) {
    if (isMissing(error)) return true
    throw error
  }
}
