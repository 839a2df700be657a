import type {
  ClientCapabilities,
  CreateMessageResult,
  ElicitResult,
  Implementation,
  Root,
  Tool,
} from '@modelcontextprotocol/sdk/types.js'
import type { AnyToolDefinition } from 'qilin-tools/internal/definition/tool-definition.js'
import type { McpElicitationRequest, McpSamplingRequest } from './call-interactions.js'
import type { McpLogMessage } from './log-messages.js'
import type { McpCatalog } from './mcp-catalog-types.js'
import type { McpOAuthClient, McpOAuthPresentation, McpOpenBrowser } from './oauth-options.js'
import type { McpTokenStore } from './oauth-token-store.js'
import type { McpProgress } from './progress-gate.js'
import type { McpNamePrefix } from './tool-name.js'

/** The one runtime capability the client needs: every registration returns its disposer. */
export interface McpToolHost {
  register(definition: AnyToolDefinition): { dispose(): void }
}

/** A server started as a child process and spoken to over its stdin and stdout. */
export interface McpStdioServer {
  readonly name: string
  readonly command: string
  readonly args?: readonly string[]
  /** Added to a small inherited environment (PATH, HOME…), as the SDK does. */
  readonly env?: Readonly<Record<string, string>>
  readonly cwd?: string
  /** Default `pipe`: the last lines are kept and quoted when the server fails. */
  readonly stderr?: 'pipe' | 'inherit' | 'ignore'
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServer {
  readonly name: string
  readonly url: string | URL
  /** Sent with every request; a static `Authorization: Bearer …` here needs no `oauth`. */
  readonly headers?: Readonly<Record<string, string>>
  /**
   * OAuth for a server that answers 401, through the MCP SDK's client auth: discovery, registration (dynamic with
   * `true`, or the given client), PKCE, a loopback redirect listener, refresh, and step-up on 403
   * `insufficient_scope`, each request authorizing at most twice. `{ grant: 'client_credentials', … }` is a machine
   * client: it asks the token endpoint directly (client secret or `private_key_jwt`), with no browser or listener.
   * `{ grant: 'cross_app_access', … }` is enterprise-managed: the user's ID token is exchanged at the identity
   * provider for an ID-JAG (RFC 8693), which the token endpoint takes as a `jwt-bearer` grant (RFC 7523).
   * @default none: a 401 fails the start
   */
  readonly oauth?: McpOAuthClient
  /**
   * With `oauth`: the client name a dynamic registration shows, scopes to ask for when the server names none, and a
   * fixed redirect listener port.
   * @default `qilin-tools`, none, a port the system picks
   */
  readonly oauthPresentation?: McpOAuthPresentation
  /**
   * Opens the authorization URL in a browser. Without it, a server that needs a person to authorize fails with
   * `INTERACTION_REQUIRED` (stored or refreshable tokens still work).
   * @default none
   */
  readonly openBrowser?: McpOpenBrowser
  /**
   * Where tokens and the client registration are kept between runs.
   * @default fileTokenStore(): one 0600 file per server URL under `$XDG_CONFIG_HOME/qilin-tools/oauth/`
   */
  readonly tokenStore?: McpTokenStore
  /**
   * How long the redirect listener waits for the browser to come back.
   * @default 300 000 ms
   */
  readonly authorizationTimeoutMs?: number
}

/** Which of the server's tools to register, by the server's own tool names. */
export type McpToolFilter =
  | { readonly allow: readonly string[] }
  | { readonly deny: readonly string[] }
  | ((tool: Tool) => boolean)

/** One MCP server to connect to (stdio or HTTP), and how its tools are filtered, named and timed. */
export type McpConnectOptions = (McpStdioServer | McpHttpServer) & {
  readonly filter?: McpToolFilter
  /** Default `'server'`: tools register as `<server>__<tool>`. */
  readonly prefix?: McpNamePrefix
  /** Per request; progress notifications restart the clock. Default 60 000 ms. */
  readonly requestTimeoutMs?: number
  /** For `initialize` and each `tools/list` page. Default 30 000 ms. */
  readonly connectTimeoutMs?: number
  /** Gives up the first start (`initialize` and the first listing) when aborted, killing a stdio server. */
  readonly signal?: AbortSignal
  /** How long a ping may take after a timed-out call before the server counts as hung. Default 5 000 ms. */
  readonly pingTimeoutMs?: number
  /**
   * Capabilities to declare (for example `roots`). Declaring `sampling` or `elicitation` passes the server's
   * requests during a call made through `serveMcp` on to the client that made it, on that call's stream; an
   * accepted form gets the schema's defaults for fields the answer left out.
   * @default none
   */
  readonly capabilities?: ClientCapabilities
  /** Answered to `roots/list` when `capabilities.roots` is declared. */
  readonly roots?: readonly Root[]
  /** Retry after a crash or hang, with exponential backoff. Default off: `reconnect()` is explicit. */
  readonly autoReconnect?: boolean | McpAutoReconnect
  /** Called after a re-sync changed the registered tools (not after the initial listing). */
  readonly onToolsChanged?: (tools: readonly string[]) => void
  /**
   * Called with each log message (`notifications/message`) the server sends, tagged with this connection's name,
   * its data bounded to 16 KiB of JSON, at most 100 a second (the rest are counted in one warning).
   * @default none: log messages are dropped
   */
  readonly onLog?: (message: McpLogMessage) => void
  /**
   * Answers the server's `sampling/createMessage` requests that no calling client can (outside `serveMcp`, or when
   * several calls are in flight); declares `sampling`.
   * @default none: such requests are refused with the reason
   */
  readonly onSampling?: (request: McpSamplingRequest) => Promise<CreateMessageResult>
  /**
   * Answers the server's `elicitation/create` requests that no calling client can; declares form elicitation. An
   * accepted answer gets the form's defaults for the fields it left out.
   * @default none: such requests are refused with the reason
   */
  readonly onElicitation?: (request: McpElicitationRequest) => Promise<ElicitResult>
  /**
   * Called with each progress report of a running call (at most 20 a second per call). The calling client gets them
   * too, under its own token, when the call came through `serveMcp` with one.
   * @default none
   */
  readonly onProgress?: (progress: McpProgress) => void
  /** Called on every status change. */
  readonly onStatus?: (status: McpConnectionStatus) => void
  /**
   * The largest `resources/read` or `prompts/get` answer passed on, in UTF-8 bytes of its JSON; a larger one fails
   * with `ANSWER_TOO_LARGE`.
   * @default 4194304 (4 MiB)
   */
  readonly maxContentBytes?: number
}

/** Opt-in reconnection after a crash or hang: `attempts` tries, the delay doubling from `initialDelayMs`. */
export interface McpAutoReconnect {
  /** Default 5. */
  readonly attempts?: number
  /** Default 500 ms. */
  readonly initialDelayMs?: number
  /** Default 10 000 ms. */
  readonly maxDelayMs?: number
}

/** Where a connection to an MCP server is in its life. */
export type McpConnectionState = 'connecting' | 'connected' | 'failed' | 'closed'

/** A snapshot of one MCP server connection: its state, last error, server information and process id. */
export interface McpConnectionStatus {
  readonly server: string
  readonly state: McpConnectionState
  /** Why the connection failed, or why the last re-sync failed while connected. */
  readonly error?: string
  readonly serverInfo?: Implementation
  /** The process id of a stdio server while it runs. */
  readonly pid?: number
  /** How many times `tools/list` was run to completion (the initial listing and every re-sync). */
  readonly syncs: number
}

/** A tool the server listed that was not registered: its name as the server wrote it, and why. */
export interface McpSkippedTool {
  readonly name: string
  /** Why, e.g. `Tool "fs__x": parameters: $ref at /properties/x: "#/a" does not resolve to a schema`. */
  readonly reason: string
}

/** A connection whose MCP server's tools are registered in a runtime, with the means to reconnect and dispose of it. */
export interface McpConnection {
  readonly name: string
  /** The registered (namespaced) tool names, in the server's listing order. */
  readonly tools: readonly string[]
  /**
   * Tools of the latest listing left out because their schemas cannot be compiled (a `$ref` that resolves to
   * nothing, an unknown type); every other tool is registered as usual. Each listing tries them again.
   */
  readonly skippedTools: readonly McpSkippedTool[]
  readonly status: McpConnectionStatus
  /** The server's resources, resource templates and prompts, re-read on their `list_changed` notifications. */
  readonly catalog: McpCatalog
  /**
   * Starts a fresh transport and session after a failure, then re-syncs the tool set. Registered tools stay
   * registered while the server is down (their calls fail with `TOOL_ERROR`), so the model's tool list holds.
   */
  reconnect(): Promise<McpConnectionStatus>
  /** Resolves once any pending re-sync (after a `list_changed` notification) has finished. */
  settled(): Promise<void>
  /** Unregisters every tool (and `read_resource`, when no other connection needs it) and closes the transport (stopping a stdio server). */
  dispose(): Promise<void>
}
