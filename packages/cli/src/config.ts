import type { PresentationMode } from 'qilin-tools/internal/registry/tool-schema.js'

export type ApprovalPolicy = 'ask' | 'allow' | 'deny'

/** Fields every `mcpServers` entry may carry, whatever its transport. */
interface McpServerCommon {
  /** Skips the entry (desktop clients' configs use it). */
  readonly disabled?: boolean
}

export type McpServerConfig =
  | (McpServerCommon & {
      readonly command: string
      readonly args?: readonly string[]
      readonly env?: Readonly<Record<string, string>>
      readonly cwd?: string
    })
  | (McpServerCommon & {
      readonly url: string
      readonly headers?: Readonly<Record<string, string>>
      readonly oauth?: McpOAuthConfig
    })

/**
 * OAuth for a remote server that answers 401 (`connectMcpServer`'s `oauth`). Empty, the client registers itself
 * dynamically; `clientId` names one registered beforehand; `clientMetadataUrl` one identified by a metadata document.
 */
export interface McpOAuthConfig {
  readonly clientId?: string
  /** Only with `clientId`. */
  readonly clientSecret?: string
  readonly clientMetadataUrl?: string
  /** `client_name` of a dynamic registration (default `qilin-tools`). */
  readonly clientName?: string
  /** Scopes asked for when the server's 401 and its metadata name none. */
  readonly scopes?: readonly string[]
  /** A fixed port for the loopback redirect listener (default: one the system picks). */
  readonly redirectPort?: number
  /** Where tokens are kept, relative to the config file (default `$XDG_CONFIG_HOME/qilin-tools/oauth/`). */
  readonly tokenDirectory?: string
  /** How long the loopback redirect listener waits for the browser (default 120 000). */
  readonly authorizationTimeoutMs?: number
}

export interface ConfigLimits {
  /** Default deadline of a `run_code` program. */
  readonly timeoutMs?: number
  readonly maxParallelCalls?: number
  readonly maxParallelSubCalls?: number
  /** UTF-8 bytes of text one native tool result may show the model (default 100 000). */
  readonly maxResultBytes?: number
  /** Default deadline of a `bash` command. */
  readonly bashTimeoutMs?: number
  /** How long an MCP server may take to start and list its tools before it is given up (default 30 000). */
  readonly mcpStartTimeoutMs?: number
}

/** `serve --http`: who may connect, and how many sessions it keeps. */
export interface ServeConfig {
  /** `Host` header values accepted besides loopback names and the bound address (`name` or `name:port`). */
  readonly allowedHosts?: readonly string[]
  /** `Origin` header values accepted besides loopback origins (`scheme://host[:port]`). */
  readonly allowedOrigins?: readonly string[]
  /** A fixed bearer token; else `QILIN_SERVE_TOKEN`; else one is generated at start and printed once. */
  readonly token?: string
  /** A session with no request for this long is closed (default 900 000). */
  readonly sessionIdleMs?: number
  /** Sessions open at once; past it, new `initialize` requests are refused (default 100). */
  readonly maxSessions?: number
}

/** The confinement of the toolkit's `bash`. */
export interface BashConfig {
  /** `bubblewrap` (default) confines every command; `none` runs it on the host and says so in every result. */
  readonly sandbox?: 'bubblewrap' | 'none'
  /** Default `false`: no network inside the sandbox. */
  readonly network?: boolean
  /** Host environment variables passed through by name; nothing else is (default: none). */
  readonly env?: readonly string[]
  /** Host paths writable besides the workspace (absolute, or relative to the config file). */
  readonly writablePaths?: readonly string[]
}

/**
 * What an approved `run_code` with `sandbox_permissions: "require_escalated"` gets, for that run only. Without this
 * entry, escalation is not offered in the `run_code` schema.
 */
export interface EscalationConfig {
  readonly network?: boolean
  readonly writablePaths?: readonly string[]
}

/** When tool search replaces listing every tool. */
export interface ToolSearchConfig {
  readonly threshold?: number
}

/**
 * `qilin.config.json` as written (relative paths still relative to the file). Each field's meaning and default is
 * stated once, in `CONFIG_FIELDS` (`config-fields.ts`), which must name exactly these fields; `docs/config-catalog.md`
 * and `docs/qilin.config.schema.json` are generated from it.
 */
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
  readonly serve?: ServeConfig
  readonly bash?: BashConfig
  readonly escalation?: EscalationConfig
  /** `false` lists every tool always. */
  readonly toolSearch?: ToolSearchConfig | false
}

/** A config with its origin: `directory` anchors relative paths; `file` is undefined for the built-in default. */
export interface LoadedConfig {
  readonly file: string | undefined
  readonly directory: string
  readonly config: QilinConfig
}
