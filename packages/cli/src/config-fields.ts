import type {
  BashConfig,
  ConfigLimits,
  EscalationConfig,
  McpOAuthConfig,
  McpServerConfig,
  QilinConfig,
  ServeConfig,
  ToolSearchConfig,
} from './config.js'

/**
 * The one description of `qilin.config.json`: each field's shape, meaning and default. `parseConfig` derives its
 * checks from it, and `scripts/generate-docs.ts` derives the catalog and the JSON Schema, so none can drift.
 */
export type ConfigShape =
  | { readonly kind: 'string' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'positiveInteger' }
  | { readonly kind: 'oneOf'; readonly values: readonly string[] }
  | { readonly kind: 'stringList' }
  | { readonly kind: 'recordOf'; readonly key: string; readonly item: ConfigShape }
  | ConfigObjectShape
  /** `false` (the feature off), or an object of `shape`. */
  | { readonly kind: 'offOr'; readonly shape: ConfigObjectShape }
  /** `when` if the value is an object holding `field`, else `otherwise`. */
  | {
      readonly kind: 'either'
      readonly field: string
      readonly when: ConfigObjectShape
      readonly otherwise: ConfigObjectShape
    }

export interface ConfigObjectShape {
  readonly kind: 'object'
  /** What the catalog calls this object when it is one branch of an `either`. */
  readonly title?: string
  readonly fields: Readonly<Record<string, ConfigField>>
  readonly required?: readonly string[]
}

export interface ConfigField {
  readonly shape: ConfigShape
  readonly description: string
  /** In words, as the catalog shows it; `none` when absence means nothing is configured. */
  readonly default: string
}

export type ConfigShapeKind = ConfigShape['kind']

const string = { kind: 'string' } as const
const boolean = { kind: 'boolean' } as const
const positiveInteger = { kind: 'positiveInteger' } as const
const stringList = { kind: 'stringList' } as const
const oneOf = (...values: string[]) => ({ kind: 'oneOf', values }) as const
const field = (shape: ConfigShape, description: string, defaultText: string): ConfigField => ({
  shape,
  description,
  default: defaultText,
})
/** Fields of `Shape`: each declared member once, and no other, so `config.ts`'s types and this table agree. */
type FieldsOf<Shape> = { readonly [Key in keyof Shape]-?: ConfigField }

const object = <Shape>(fields: FieldsOf<Shape>, required: readonly string[] = []): ConfigObjectShape => ({
  kind: 'object',
  fields,
  required,
})

const disabled = field(boolean, 'Skips the entry (desktop clients’ configs use it).', '`false`')

const stdioServer: ConfigObjectShape = {
  ...object<Extract<McpServerConfig, { readonly command: string }> & { readonly type?: unknown }>(
    {
      command: field(string, 'The program that starts the server (looked up on PATH).', 'required'),
      args: field(stringList, 'Its arguments.', 'none'),
      env: field({ kind: 'recordOf', key: 'name', item: string }, 'Environment variables set for it.', 'none'),
      cwd: field(string, 'Its working directory, relative to the config file.', 'the config file’s directory'),
      type: field(oneOf('stdio'), 'The transport, as desktop clients write it.', '`stdio`'),
      disabled,
    },
    ['command'],
  ),
  title: 'An entry without `url`: a server started as a process (stdio)',
}

const httpServer: ConfigObjectShape = {
  ...object<Extract<McpServerConfig, { readonly url: string }> & { readonly type?: unknown }>(
    {
      url: field(string, 'The Streamable HTTP endpoint of a running server.', 'required'),
      headers: field({ kind: 'recordOf', key: 'name', item: string }, 'HTTP headers sent with every request.', 'none'),
      oauth: field(
        object<McpOAuthConfig>({
          clientId: field(string, 'A client registered beforehand with the authorization server.', 'none'),
          clientSecret: field(string, 'Its secret, for a confidential client (only with `clientId`).', 'none'),
          clientMetadataUrl: field(
            string,
            'An HTTPS URL serving this client’s metadata document, used as its `client_id` where the server supports it (not with `clientId`).',
            'none',
          ),
          clientName: field(
            string,
            'The `client_name` a dynamic registration shows the person who approves.',
            '`qilin-tools`',
          ),
          scopes: field(
            stringList,
            'Scopes asked for when neither the server’s 401 nor its resource metadata names any.',
            'none',
          ),
          redirectPort: field(
            positiveInteger,
            'A fixed port (up to 65535) for the loopback redirect listener, for a client registered with the exact redirect URI `http://127.0.0.1:<port>/callback`.',
            'a port the system picks',
          ),
          tokenDirectory: field(
            string,
            'Where tokens and the client registration are kept (one 0600 file per server URL), relative to the config file.',
            '`$XDG_CONFIG_HOME/qilin-tools/oauth/`',
          ),
          authorizationTimeoutMs: field(
            positiveInteger,
            'How long the loopback redirect listener waits for the browser, in milliseconds; the start may take this long besides `limits.mcpStartTimeoutMs`.',
            '120 000',
          ),
        }),
        'OAuth for a server that answers 401: discovery, registration (dynamic unless `clientId` or `clientMetadataUrl` is given), PKCE, a loopback redirect (the authorization URL is printed to stderr), refresh and step-up.',
        'none: a 401 leaves the server out',
      ),
      type: field(oneOf('http', 'streamable-http'), 'The transport, as desktop clients write it.', '`http`'),
      disabled,
    },
    ['url'],
  ),
  title: 'An entry with `url`: a server reached over Streamable HTTP',
}

const topLevel: FieldsOf<QilinConfig & { readonly $schema?: string }> = {
  $schema: field(string, 'The JSON Schema editors check the file against; qilin-tools ignores it.', 'none'),
  workspace: field(string, 'The workspace toolkit’s root, relative to the config file.', 'the config file’s directory'),
  toolkit: field(boolean, 'Whether to register the workspace toolkit.', '`true`'),
  mode: field(
    oneOf('native', 'ptc', 'both'),
    'What the model sees: every tool (`native`), `run_code` alone with the SDK (`ptc`), or both.',
    '`native`',
  ),
  language: field(oneOf('typescript', 'python'), 'The code-mode language of `run_code`.', '`typescript`'),
  mcpServers: field(
    {
      kind: 'recordOf',
      key: 'name',
      item: { kind: 'either', field: 'url', when: httpServer, otherwise: stdioServer },
    },
    'MCP servers whose tools are registered as `<name>__<tool>`, in the shape desktop MCP clients use.',
    'none',
  ),
  approve: field(
    { kind: 'recordOf', key: 'pattern', item: oneOf('ask', 'allow', 'deny') },
    'Per tool-name pattern (`*` matches any run of characters): ask a person, allow, or deny. The first matching entry wins.',
    'none (the toolkit asks before `bash`)',
  ),
  limits: field(
    object<ConfigLimits>({
      timeoutMs: field(positiveInteger, 'Default deadline of a `run_code` program, in milliseconds.', '120 000'),
      maxParallelCalls: field(positiveInteger, 'Parallel-safe calls of one batch that overlap.', '10'),
      maxParallelSubCalls: field(positiveInteger, 'Parallel-safe sub-calls of one `run_code` that overlap.', '10'),
      maxResultBytes: field(
        positiveInteger,
        'UTF-8 bytes of text one native tool result may show the model; a longer one is cut, with a note.',
        '100 000',
      ),
      bashTimeoutMs: field(positiveInteger, 'Default deadline of a `bash` command, in milliseconds.', '120 000'),
      mcpStartTimeoutMs: field(
        positiveInteger,
        'How long an MCP server may take to start and list its tools before it is left out, in milliseconds.',
        '30 000',
      ),
    }),
    'Deadlines and parallelism.',
    'none (each field’s default)',
  ),
  serve: field(
    object<ServeConfig>({
      allowedHosts: field(
        stringList,
        '`Host` header values accepted besides loopback names and the bound address (`name` or `name:port`).',
        'none',
      ),
      allowedOrigins: field(
        stringList,
        '`Origin` header values accepted besides loopback origins (`scheme://host[:port]`).',
        'none',
      ),
      token: field(
        string,
        'A fixed bearer token.',
        '`QILIN_SERVE_TOKEN`, else one generated at start and printed once',
      ),
      sessionIdleMs: field(
        positiveInteger,
        'A session with no request for this long is closed, in milliseconds.',
        '900 000',
      ),
      maxSessions: field(
        positiveInteger,
        'Sessions open at once; past it, new `initialize` requests are refused.',
        '100',
      ),
    }),
    '`serve --http`: who may connect, and how many sessions it keeps.',
    'none (each field’s default)',
  ),
  bash: field(
    object<BashConfig>({
      sandbox: field(
        oneOf('bubblewrap', 'none'),
        '`bubblewrap` confines every command; `none` runs it on the host and says so in every result.',
        '`bubblewrap`',
      ),
      network: field(boolean, 'Whether the sandbox has the network.', '`false`'),
      env: field(stringList, 'Host environment variables passed through by name; nothing else is.', 'none'),
      writablePaths: field(
        stringList,
        'Host paths writable besides the workspace (absolute, or relative to the config file).',
        'none',
      ),
    }),
    'The confinement of the toolkit’s `bash`.',
    'none (each field’s default)',
  ),
  toolSearch: field(
    {
      kind: 'offOr',
      shape: object<ToolSearchConfig>({
        threshold: field(
          positiveInteger,
          'Search replaces listing in a scope that sees more than this many tools.',
          '30',
        ),
      }),
    },
    'Past the threshold the model sees `search_tools` (and in code mode an index) instead of every tool; `false` always lists every tool.',
    '`{ "threshold": 30 }`',
  ),
  escalation: field(
    object<EscalationConfig>({
      network: field(boolean, 'Whether an escalated run has the network.', '`false`'),
      writablePaths: field(
        stringList,
        'Host paths an escalated run may write (absolute, or relative to the config file).',
        'none',
      ),
    }),
    'What an approved `run_code` with `sandbox_permissions: "require_escalated"` gets, for that run only. Without it, escalation is not offered.',
    'none (not offered)',
  ),
}

/** Every accepted top-level field, in the order errors list them. */
export const CONFIG_FIELDS: Readonly<Record<string, ConfigField>> = topLevel
