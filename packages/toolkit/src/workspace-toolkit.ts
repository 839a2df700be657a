import type { AnyToolDefinition } from 'qilin-tools/internal/definition/tool-definition.js'
import type { ToolRuntime } from 'qilin-tools/internal/pipeline/tool-runtime.js'
import { type BashToolOptions, bashTool } from './bash-tool.js'
import { type EditFileToolOptions, editFileTool } from './edit-file-tool.js'
import { fileInfoTool } from './file-info-tool.js'
import { globTool } from './glob-tool.js'
import { type GrepToolOptions, grepTool } from './grep-tool.js'
import { listDirectoryTool } from './list-directory-tool.js'
import { type ReadFileToolOptions, readFileTool } from './read-file-tool.js'
import { openWorkspace } from './workspace.js'
import { type WriteFileToolOptions, writeFileTool } from './write-file-tool.js'

/** Whether a host should ask a person before a tool runs (`ask`) or let it run (`allow`). */
export type ToolkitApproval = 'ask' | 'allow'

/** How `createWorkspaceToolkit` builds its tools: the workspace root, and options and approvals per tool. */
export interface WorkspaceToolkitOptions {
  /** The directory every tool is confined to. */
  readonly root: string
  /** `bash` runs confined by bubblewrap unless `sandbox: 'none'`; see `BashToolOptions`. */
  readonly bash?: BashToolOptions & {
    /** `ask` (default): a host should ask a person before each command. `allow`: run without asking. */
    readonly approval?: ToolkitApproval
  }
  /** Size limits of the file tools (each 10 MiB by default; `grep` passes over files above 5 MiB). */
  readonly readFile?: ReadFileToolOptions
  readonly writeFile?: WriteFileToolOptions
  readonly editFile?: EditFileToolOptions
  readonly grep?: GrepToolOptions
  /** Leave `bash` out entirely. */
  readonly withoutBash?: boolean
}

/** File and shell tools confined to one workspace, with the approval each one wants. */
export interface WorkspaceToolkit {
  /** The real path of the workspace root. */
  readonly root: string
  readonly tools: readonly AnyToolDefinition[]
  /** Per tool name, whether a host should ask before running it; tools not listed are `allow`. */
  readonly approvals: Readonly<Record<string, ToolkitApproval>>
  /**
   * Registers every tool, and a `tools/pre-execute` listener that asks before each tool whose approval is `ask`
   * (the runtime's `approve` decides; without one, asking denies). The disposer removes them all.
   */
  register(runtime: ToolRegistrar): { dispose(): void }
}

/** What `register` needs of a runtime: `createToolRuntime()` satisfies it. */
export type ToolRegistrar = Pick<ToolRuntime, 'register' | 'on'>

/**
 * File and shell tools confined to one directory: `read_file`, `write_file`, `edit_file`, `list_directory`,
 * `glob`, `grep`, `file_info` and `bash`. Paths outside the root (`..`, absolute, through symlinks) are refused.
 */
export function createWorkspaceToolkit(options: WorkspaceToolkitOptions): WorkspaceToolkit {
  const workspace = openWorkspace(options.root)
  const tools: AnyToolDefinition[] = [
    readFileTool(workspace, options.readFile),
    writeFileTool(workspace, options.writeFile),
    editFileTool(workspace, options.editFile),
    listDirectoryTool(workspace),
    globTool(workspace),
    grepTool(workspace, options.grep),
    fileInfoTool(workspace),
  ]
  if (options.withoutBash !== true) tools.push(bashTool(workspace, options.bash))
  const approvals: Readonly<Record<string, ToolkitApproval>> = Object.freeze(
    options.withoutBash === true ? {} : { bash: options.bash?.approval ?? 'ask' },
  )
  return {
    root: workspace.root,
    tools: Object.freeze(tools),
    approvals,
    register(runtime) {
      const registrations = tools.map((tool) => runtime.register(tool))
      registrations.push(
        runtime.on('tools/pre-execute', ({ call }) =>
          approvals[call.name] === 'ask'
            ? { action: 'ask', reason: `the workspace toolkit asks before running ${call.name}` }
            : undefined,
        ),
      )
      return {
        dispose() {
          for (const registration of registrations.reverse()) registration.dispose()
        },
      }
    },
  }
}
