import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { globMatcher } from './glob-pattern.js'
import { SKIPPED_DIRECTORIES, walkFiles } from './walk-files.js'
import type { Workspace } from './workspace.js'

const DEFAULT_LIMIT = 500

/** What `glob` returns: the matching files and whether the list was cut. */
export type GlobValue = {
  /** Workspace-relative file paths, sorted. */
  files: string[]
  truncated: boolean
}

/** Finds files by name pattern under a directory of the workspace. */
export function globTool(workspace: Workspace) {
  return defineTool({
    name: 'glob',
    description: `Find workspace files whose path matches a glob: \`**\` spans directories, \`*\` and \`?\` match within one, \`{a,b}\` alternates. A pattern without "/" matches file names at any depth. Skips ${[...SKIPPED_DIRECTORIES].join(' and ')}; does not follow symlinks.`,
    parameters: {
      pattern: { type: 'string', required: true, description: 'For example "**/*.ts" or "*.md"' },
      path: { type: 'string', description: 'Directory to search, relative to the workspace root (default ".")' },
      limit: { type: 'integer', minimum: 1, description: `Maximum number of paths (default ${DEFAULT_LIMIT})` },
    },
    output: {
      schema: {
        type: 'object',
        properties: {
          files: {
            type: 'array',
            items: { type: 'string' },
            description: 'Workspace-relative paths, sorted',
            required: true,
          },
          truncated: { type: 'boolean', required: true },
        },
      },
    },
    executionMode: 'parallel',
    annotations: { readOnlyHint: true },
    async execute(args, exec): Promise<GlobValue> {
      const start = await workspace.resolve(args.path ?? '.', 'read')
      const matcher = globMatcher(args.pattern)
      const limit = args.limit ?? DEFAULT_LIMIT
      const files: string[] = []
      for await (const file of walkFiles(start, exec.signal)) {
        if (!matcher.test(file.relative)) continue
        if (files.length === limit) return { files, truncated: true }
        files.push(workspace.display(file.absolute))
      }
      return { files, truncated: false }
    },
  })
}
