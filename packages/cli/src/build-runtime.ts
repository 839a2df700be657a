import { basename, resolve } from 'node:path'
import type { PtcLanguage, PtcRuntime } from '@qilin-tools/code-mode/internal/ptc-port.js'
import type { McpLogMessage } from '@qilin-tools/mcp/internal/log-messages.js'
import type { McpConnection, McpConnectOptions } from '@qilin-tools/mcp/internal/mcp-connection-types.js'
import type { McpProgress } from '@qilin-tools/mcp/internal/progress-gate.js'
import { createWorkspaceToolkit, type WorkspaceToolkit } from '@qilin-tools/toolkit/internal/workspace-toolkit.js'
import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import { createToolRuntime } from 'qilin-tools/internal/pipeline/create-tool-runtime.js'
import type { Approver } from 'qilin-tools/internal/pipeline/pipeline-events.js'
import type { ToolRuntime } from 'qilin-tools/internal/pipeline/tool-runtime.js'
import type { PresentationMode } from 'qilin-tools/internal/registry/tool-schema.js'
import { approvalListener } from './approval-policy.js'
import type { CliIo } from './cli-command.js'
import { CliError } from './cli-error.js'
import type { LoadedConfig, McpServerConfig } from './config.js'
import { escalationProfile, loadPtcRuntime } from './load-ptc-runtime.js'
import { oauthConnectOptions } from './mcp-oauth-options.js'
import { terminalApprover } from './terminal-approver.js'
import { terminalText } from './terminal-text.js'

/** How long an MCP server may take to start and list its tools when `limits.mcpStartTimeoutMs` is not set. */
const DEFAULT_MCP_START_TIMEOUT_MS = 30_000

export interface RuntimeRequest {
  readonly mode: PresentationMode
  /** The code-mode language; undefined loads no PTC runtime (only valid with `native`). */
  readonly language: PtcLanguage | undefined
  /** Decides `ask`s; default: a prompt on the terminal, or a denial without one. */
  readonly approver?: Approver
  /** `one` for a single program (no sandbox pool); `many` for a server. Default `one`. */
  readonly runs?: 'one' | 'many'
  /** Receives the log messages the configured MCP servers send; default: they are dropped. */
  readonly onMcpLog?: (message: McpLogMessage) => void
  /** Receives the progress reports of running MCP calls; default: they are dropped. */
  readonly onMcpProgress?: (progress: McpProgress) => void
  /**
   * Declares sampling and elicitation to the configured MCP servers, so that their requests during a call go on to
   * the MCP client that made it (`serve`). Default `false`: such servers see neither capability.
   */
  readonly mcpInteractions?: boolean
}

/** The configured tools behind one pipeline, and how to let go of them. */
export interface CliRuntime {
  readonly runtime: ToolRuntime
  readonly toolkit: WorkspaceToolkit | undefined
  /** The code-mode runtime, when the command asked for a language. */
  readonly ptcRuntime: PtcRuntime | undefined
  close(): Promise<void>
}

/** Builds the runtime a command uses: the toolkit, the MCP servers, the approval policy and the limits of the config. */
export async function buildRuntime(loaded: LoadedConfig, request: RuntimeRequest, io: CliIo): Promise<CliRuntime> {
  const { config } = loaded
  const source = loaded.file === undefined ? 'the default policy' : basename(loaded.file)
  const limits = config.limits ?? {}
  const ptcRuntime =
    request.language === undefined ? undefined : await loadPtcRuntime(request.language, loaded, request.runs ?? 'one')
  const runtime = createToolRuntime({
    mode: request.mode,
    ...(config.toolSearch === undefined ? {} : { toolSearch: config.toolSearch }),
    approve: request.approver ?? terminalApprover(io, loaded.file ?? 'qilin.config.json'),
    ...(limits.maxParallelCalls === undefined ? {} : { maxParallelCalls: limits.maxParallelCalls }),
    ...(limits.maxParallelSubCalls === undefined ? {} : { maxParallelSubCalls: limits.maxParallelSubCalls }),
    ...(limits.maxResultBytes === undefined ? {} : { maxResultBytes: limits.maxResultBytes }),
    ...(ptcRuntime === undefined ? {} : { ptcRuntime }),
  })
  const toolkit = config.toolkit === false ? undefined : openToolkit(loaded)
  // The tools alone: the approval listener below applies the toolkit's defaults under the config's rules.
  for (const tool of toolkit?.tools ?? []) runtime.register(tool)
  runtime.on('tools/pre-execute', approvalListener(config.approve ?? {}, toolkit?.approvals ?? {}, source))
  const connections = await connectServers(loaded, runtime, io, request)
  return {
    runtime,
    toolkit,
    ptcRuntime,
    async close() {
      await Promise.allSettled(connections.map((connection) => connection.dispose()))
      await ptcRuntime?.close()
    },
  }
}

function openToolkit(loaded: LoadedConfig): WorkspaceToolkit {
  const root = resolve(loaded.directory, loaded.config.workspace ?? '.')
  const bashTimeoutMs = loaded.config.limits?.bashTimeoutMs
  const bash = loaded.config.bash ?? {}
  const escalation = escalationProfile(loaded)
  try {
    return createWorkspaceToolkit({
      root,
      bash: {
        ...(bashTimeoutMs === undefined ? {} : { timeoutMs: bashTimeoutMs }),
        ...(bash.sandbox === undefined ? {} : { sandbox: bash.sandbox }),
        ...(bash.network === undefined ? {} : { network: bash.network }),
        ...(bash.env === undefined ? {} : { env: bash.env }),
        ...(bash.writablePaths === undefined
          ? {}
          : { writablePaths: bash.writablePaths.map((path) => resolve(loaded.directory, path)) }),
        ...(escalation === undefined ? {} : { escalation }),
      },
    })
  } catch (error) {
    const field = loaded.file === undefined ? 'the current directory' : `${loaded.file}: "workspace"`
    throw new CliError(`${field}: ${(error as Error).message}`)
  }
}

/**
 * Starts the enabled `mcpServers` side by side. One that fails, or has not listed its tools within
 * `limits.mcpStartTimeoutMs`, is killed and left out with one warning line; the others serve. A stop signal gives
 * up every start still pending.
 */
async function connectServers(
  loaded: LoadedConfig,
  runtime: ToolRuntime,
  io: CliIo,
  request: RuntimeRequest,
): Promise<McpConnection[]> {
  const servers = Object.entries(loaded.config.mcpServers ?? {}).filter(([, server]) => server.disabled !== true)
  if (servers.length === 0) return []
  const { connectMcpServer } = await import('@qilin-tools/mcp/internal/connect-mcp-server.js')
  const startTimeoutMs = loaded.config.limits?.mcpStartTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS
  const shared = {
    ...(request.onMcpLog === undefined ? {} : { onLog: request.onMcpLog }),
    ...(request.onMcpProgress === undefined ? {} : { onProgress: request.onMcpProgress }),
    ...(request.mcpInteractions === true ? { capabilities: { sampling: {}, elicitation: { form: {} } } } : {}),
  }
  const printLine = (line: string) => io.error(`qilin-tools: ${line}\n`)
  const settled = await Promise.allSettled(
    servers.map(async ([name, { disabled: _, ...server }]) => {
      const transport: McpConnectOptions =
        'command' in server
          ? { name, ...server, cwd: resolve(loaded.directory, server.cwd ?? '.') }
          : await httpOptions(name, server, loaded.directory, printLine)
      // A person authorizing in a browser gets that long on top of the start itself.
      const waitMs = 'oauth' in transport ? (transport.authorizationTimeoutMs ?? 0) : 0
      const deadline = AbortSignal.timeout(startTimeoutMs + waitMs)
      const started = connectMcpServer(runtime, {
        ...transport,
        connectTimeoutMs: startTimeoutMs,
        signal: AbortSignal.any([io.stop, deadline]),
        ...shared,
      })
      return started.catch((cause: unknown) => {
        throw deadline.aborted
          ? new Error(
              `did not start within ${startTimeoutMs + waitMs} ms (limits.mcpStartTimeoutMs${waitMs === 0 ? '' : ' + oauth.authorizationTimeoutMs'})`,
            )
          : cause
      })
    }),
  )
  const connections: McpConnection[] = []
  settled.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') {
      connections.push(outcome.value)
      for (const tool of outcome.value.skippedTools) {
        printLine(
          `MCP server "${outcome.value.name}": tool ${terminalText(tool.name, 80)} left out: ${terminalText(tool.reason, 300)}`,
        )
      }
    } else if (!io.stop.aborted)
      io.error(`qilin-tools: ${serverWarning(loaded, servers[index]?.[0] ?? '', outcome.reason)}\n`)
  })
  return connections
}

/** A `url` entry as `connectMcpServer` takes it: its `oauth` entry mapped, the rest as written. */
async function httpOptions(
  name: string,
  { oauth, ...server }: Extract<McpServerConfig, { readonly url: string }>,
  directory: string,
  printLine: (line: string) => void,
): Promise<McpConnectOptions> {
  if (oauth === undefined) return { name, ...server }
  return { name, ...server, ...(await oauthConnectOptions(name, oauth, directory, printLine)) }
}

/** One line: the server, and the first line of why it is left out (the stderr tail, if any, follows it). */
function serverWarning(loaded: LoadedConfig, name: string, reason: unknown): string {
  const text = thrownMessage(reason)
  const why = text.replace(/^MCP server ".*?" failed to start: /, '').split('\n')
  const lastStderrLine = why.length > 1 ? `; last stderr line: ${why.at(-1)?.trim()}` : ''
  const where = loaded.file === undefined ? '' : `${basename(loaded.file)}: `
  return `${where}mcpServers.${name} skipped: ${why[0]}${lastStderrLine}`
}
