import type { PresentationMode } from '../registry/tool-schema.js'

export type ApprovalPolicy = 'ask' | 'allow' | 'deny'

export type McpServerConfig =
  | {
      readonly command: string
      readonly args?: readonly string[]
      readonly env?: Readonly<Record<string, string>>
      readonly cwd?: string
    }
  | { readonly url: string; readonly headers?: Readonly<Record<string, string>> }

export interface ConfigLimits {
  /** Default deadline of a `run_code` program. */
  readonly timeoutMs?: number
  readonly maxParallelCalls?: number
  readonly maxParallelSubCalls?: number
  /** Default deadline of a `bash` command. */
  readonly bashTimeoutMs?: number
}

/** `qilin.config.json` as written (relative paths still relative to the file). */
export interface QilinConfig {
  /** The toolkit's root; default the directory holding the config. */
  readonly workspace?: string
  /** Default `true`: register the workspace toolkit. */
  readonly toolkit?: boolean
  readonly mode?: PresentationMode
  readonly language?: 'typescript' | 'python'
  /** The shape desktop MCP clients use. */
  readonly mcpServers?: Readonly<Record<string, McpServerConfig>>
  /** Per tool-name pattern (`*` matches any run of characters); the first matching entry wins. */
  readonly approve?: Readonly<Record<string, ApprovalPolicy>>
  readonly limits?: ConfigLimits
}

/** A config with its origin: `directory` anchors relative paths; `file` is undefined for the built-in default. */
export interface LoadedConfig {
  readonly file: string | undefined
  readonly directory: string
  readonly config: QilinConfig
}
