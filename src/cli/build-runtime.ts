import { basename, resolve } from 'node:path'
import type { McpConnection } from '../mcp/mcp-connection-types.js'
import { createToolRuntime } from '../pipeline/create-tool-runtime.js'
import type { Approver } from '../pipeline/pipeline-events.js'
import type { PtcLanguage } from '../pipeline/ptc-port.js'
import { timeoutPolicy } from '../pipeline/timeout-policy.js'
import type { ToolRuntime } from '../pipeline/tool-runtime.js'
import type { PresentationMode } from '../registry/tool-schema.js'
import { createWorkspaceToolkit, type WorkspaceToolkit } from '../toolkit/workspace-toolkit.js'
import { approvalListener } from './approval-policy.js'
import type { CliIo } from './cli-command.js'
import { CliError, ExitCode } from './cli-error.js'
import type { LoadedConfig } from './config.js'
import { loadPtcRuntime } from './load-ptc-runtime.js'
import { terminalApprover } from './terminal-approver.js'

export interface RuntimeRequest {
  readonly mode: PresentationMode
  /** The code-mode language; undefined loads no PTC runtime (only valid with `native`). */
  readonly language: PtcLanguage | undefined
  /** Decides `ask`s; default: a prompt on the terminal, or a denial without one. */
  readonly approver?: Approver
  /** `one` for a single program (no sandbox pool); `many` for a server. Default `one`. */
  readonly runs?: 'one' | 'many'
}

/** The configured tools behind one pipeline, and how to let go of them. */
export interface CliRuntime {
  readonly runtime: ToolRuntime
  readonly toolkit: WorkspaceToolkit | undefined
  close(): Promise<void>
}

/** Builds the runtime a command uses: the toolkit, the MCP servers, the approval policy and the limits of the config. */
export async function buildRuntime(loaded: LoadedConfig, request: RuntimeRequest, io: CliIo): Promise<CliRuntime> {
  const { config } = loaded
  const source = loaded.file === undefined ? 'the default policy' : basename(loaded.file)
  const limits = config.limits ?? {}
  const ptcRuntime =
    request.language === undefined ? undefined : await loadPtcRuntime(request.language, limits, request.runs ?? 'one')
  const runtime = createToolRuntime({
    mode: request.mode,
    approve: request.approver ?? terminalApprover(io, loaded.file ?? 'qilin.config.json'),
    ...(limits.maxParallelCalls === undefined ? {} : { maxParallelCalls: limits.maxParallelCalls }),
    ...(limits.maxParallelSubCalls === undefined ? {} : { maxParallelSubCalls: limits.maxParallelSubCalls }),
    ...(ptcRuntime === undefined ? {} : { ptcRuntime }),
  })
  runtime.on('tools/execute', timeoutPolicy())
  const toolkit = config.toolkit === false ? undefined : openToolkit(loaded)
  // The tools alone: the approval listener below applies the toolkit's defaults under the config's rules.
  for (const tool of toolkit?.tools ?? []) runtime.register(tool)
  runtime.on('tools/pre-execute', approvalListener(config.approve ?? {}, toolkit?.approvals ?? {}, source))
  const connections = await connectServers(loaded, runtime)
  return {
    runtime,
    toolkit,
    async close() {
      await Promise.allSettled(connections.map((connection) => connection.dispose()))
      await ptcRuntime?.close()
    },
  }
}

function openToolkit(loaded: LoadedConfig): WorkspaceToolkit {
  const root = resolve(loaded.directory, loaded.config.workspace ?? '.')
  const bashTimeoutMs = loaded.config.limits?.bashTimeoutMs
  try {
    return createWorkspaceToolkit({
      root,
      ...(bashTimeoutMs === undefined ? {} : { bash: { timeoutMs: bashTimeoutMs } }),
    })
  } catch (error) {
    const field = loaded.file === undefined ? 'the current directory' : `${loaded.file}: "workspace"`
    throw new CliError(`${field}: ${(error as Error).message}`)
  }
}

async function connectServers(loaded: LoadedConfig, runtime: ToolRuntime): Promise<McpConnection[]> {
  const servers = Object.entries(loaded.config.mcpServers ?? {})
  if (servers.length === 0) return []
  const { connectMcpServer } = await import('../mcp/connect-mcp-server.js')
  const settled = await Promise.allSettled(
    servers.map(([name, server]) =>
      connectMcpServer(
        runtime,
        'command' in server
          ? { name, ...server, cwd: resolve(loaded.directory, server.cwd ?? '.') }
          : { name, ...server },
      ),
    ),
  )
  const connections = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []))
  const failedIndex = settled.findIndex((outcome) => outcome.status === 'rejected')
  if (failedIndex !== -1) {
    await Promise.allSettled(connections.map((connection) => connection.dispose()))
    const reason = (settled[failedIndex] as PromiseRejectedResult).reason
    throw new CliError(
      `${loaded.file}: "mcpServers.${servers[failedIndex]?.[0]}" could not start: ${reason instanceof Error ? reason.message : String(reason)}`,
      ExitCode.failed,
    )
  }
  return connections
}
