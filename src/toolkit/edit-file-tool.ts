import { readFile, writeFile } from 'node:fs/promises'
import { defineTool } from '../definition/define-tool.js'
import { failure, type Workspace } from './workspace.js'

export type EditFileValue = {
  path: string
  replacements: number
}

/** Replaces exact text in a file; refuses when the text is absent or, without `replaceAll`, not unique. */
export function editFileTool(workspace: Workspace) {
  return defineTool({
    name: 'edit_file',
    description:
      'Replace exact text in a workspace file. `oldText` must match the file byte for byte (whitespace included) and occur exactly once, unless `replaceAll` is true.',
    parameters: {
      path: { type: 'string', required: true, description: 'File path relative to the workspace root' },
      oldText: { type: 'string', required: true, minLength: 1, description: 'The exact text to replace' },
      newText: { type: 'string', required: true, description: 'The replacement text' },
      replaceAll: { type: 'boolean', description: 'Replace every occurrence (default false)' },
    },
    output: {
      schema: {
        type: 'object',
        properties: { path: { type: 'string', required: true }, replacements: { type: 'integer', required: true } },
      },
    },
    executionMode: 'exclusive',
    annotations: { destructiveHint: true },
    async execute(args, exec): Promise<EditFileValue> {
      const absolute = await workspace.resolve(args.path, 'read')
      const text = await readFile(absolute, { encoding: 'utf8', signal: exec.signal })
      const occurrences = text.split(args.oldText).length - 1
      if (occurrences === 0) {
        throw failure(
          `oldText was not found in "${args.path}"; read the file again and copy the text exactly, including whitespace and indentation`,
        )
      }
      if (occurrences > 1 && args.replaceAll !== true) {
        throw failure(
          `oldText occurs ${occurrences} times in "${args.path}"; include more surrounding lines to make it unique, or set replaceAll to true`,
        )
      }
      const edited = args.replaceAll === true ? text.split(args.oldText).join(args.newText) : replaceOnce(text, args)
      await writeFile(absolute, edited, { signal: exec.signal })
      return { path: workspace.display(absolute), replacements: occurrences }
    },
  })
}

function replaceOnce(text: string, edit: { oldText: string; newText: string }): string {
  const index = text.indexOf(edit.oldText)
  return text.slice(0, index) + edit.newText + text.slice(index + edit.oldText.length)
}
