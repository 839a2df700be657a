// `@qilin-tools/toolkit`: file and shell tools confined to a workspace directory. Named exports only.

export type { SandboxEscalation } from '@qilin-tools/sandbox/internal/sandbox-escalation.js'
export type { BashToolOptions, BashValue } from './bash-tool.js'
export type { EditFileToolOptions, EditFileValue } from './edit-file-tool.js'
export type { EntryType } from './entry-type.js'
export type { FileInfoValue } from './file-info-tool.js'
export type { GlobValue } from './glob-tool.js'
export type { GrepMatch, GrepToolOptions, GrepValue } from './grep-tool.js'
export type { DirectoryEntry, ListDirectoryValue } from './list-directory-tool.js'
export type { ReadFileToolOptions, ReadFileValue } from './read-file-tool.js'
export {
  createWorkspaceToolkit,
  type ToolkitApproval,
  type ToolRegistrar,
  type WorkspaceToolkit,
  type WorkspaceToolkitOptions,
} from './workspace-toolkit.js'
export type { WriteFileToolOptions, WriteFileValue } from './write-file-tool.js'
