import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { countMatches, replaceMatches } from './byte-matches.js'
import { readWithinLimit, replaceContent } from './file-content.js'
import { byteLimitOption, DEFAULT_FILE_BYTES } from './file-limits.js'
import { openRegularFile } from './open-regular-file.js'
import { failure, type Workspace } from './workspace.js'

/** What `edit_file` returns: the path and how many replacements it made. */
export type EditFileValue = {
  path: string
  replacements: number
}

/** The size limit of `edit_file`. */
export interface EditFileToolOptions {
  /** The largest file edit_file opens and the largest result it writes, in bytes (default 10 MiB). */
  readonly maxBytes?: number
}

/** Half of a UTF-16 surrogate pair with no other half: it has no UTF-8 form, so it cannot be matched in a file. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Replaces exact text in a file; refuses when the text is absent or, without `replaceAll`, not unique. The edit is
 * made on the file's bytes, so the rest of the file is kept byte for byte, and the result's size is known (and
 * checked) before it is built.
 */
export function editFileTool(workspace: Workspace, options: EditFileToolOptions = {}) {
  const maxBytes = byteLimitOption(options.maxBytes, 'edit_file maxBytes', DEFAULT_FILE_BYTES)
  const limit = { maxBytes, advice: '; edit_file cannot open files this large' }
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
      if (LONE_SURROGATE.test(args.oldText)) {
        throw failure('oldText contains an unpaired UTF-16 surrogate, which no file can contain; copy the text again')
      }
      const newSize = Buffer.byteLength(args.newText)
      if (newSize > maxBytes) {
        throw failure(`newText is ${newSize} bytes, over edit_file's ${maxBytes} byte limit; the file was not changed`)
      }
      const absolute = await workspace.resolve(args.path, 'read')
      const file = await openRegularFile(workspace, absolute, args.path, 'update')
      try {
        const bytes = await readWithinLimit(file, args.path, limit, exec.signal)
        const oldBytes = Buffer.from(args.oldText)
        const occurrences = await countMatches(bytes, oldBytes, exec.signal)
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
        const resultSize = bytes.length + occurrences * (newSize - oldBytes.length)
        if (resultSize > maxBytes) {
          throw failure(
            `edit_file would make "${args.path}" ${resultSize} bytes, over the ${maxBytes} byte limit (${occurrences} replacements); the file was not changed. Replace fewer occurrences, or shorten newText`,
          )
        }
        const newBytes = Buffer.from(args.newText)
        await replaceContent(
          file,
          await replaceMatches(bytes, oldBytes, newBytes, occurrences, exec.signal),
          exec.signal,
        )
        return { path: workspace.display(absolute), replacements: occurrences }
      } finally {
        await file.handle.close()
      }
    },
  })
}
