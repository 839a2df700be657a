import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import { type BashSandboxOptions, openBashSandbox } from './bash-sandbox.js'
import { MAX_OUTPUT_BYTES } from './output-buffer.js'
import { runShellCommand } from './run-shell-command.js'
import type { Workspace } from './workspace.js'

export const BASH_DEFAULT_TIMEOUT_MS = 120_000
export const BASH_MAX_TIMEOUT_MS = 600_000

/** What `bash` returns: the exit code, the output, and whether the command timed out or its output was cut. */
export type BashValue = {
  /** Null when the command was killed by a signal. */
  exitCode: number | null
  stdout: string
  stderr: string
  timedOut: boolean
  /** True when stdout or stderr exceeded the cap and was cut. */
  truncated: boolean
  /** `none` when the command ran unconfined on the host (`sandbox: 'none'`). */
  sandbox: 'bubblewrap' | 'none'
}

/** How `bash` confines commands, and how long one may run when the call gives no deadline. */
export interface BashToolOptions extends BashSandboxOptions {
  /** Default deadline for a command when the call gives none. Default 120 000 ms. */
  readonly timeoutMs?: number
}

/**
 * Runs a shell command in the workspace root, confined by bubblewrap unless `sandbox: 'none'`: the workspace
 * read-write, the system read-only, the rest of the host hidden, no network, a scrubbed environment, resource limits.
 * Every process of the command is killed when it ends, times out or is cancelled. A non-zero exit is a result.
 */
export function bashTool(workspace: Workspace, options: BashToolOptions = {}) {
  const defaultTimeoutMs = options.timeoutMs ?? BASH_DEFAULT_TIMEOUT_MS
  const sandbox = openBashSandbox(workspace.root, options)
  const confinement =
    sandbox.kind === 'none'
      ? 'It runs on the host, unconfined.'
      : `It runs in a sandbox: only the workspace is writable, the rest of the host's files and environment are hidden${options.network === true ? '' : ', and there is no network'}; background processes end with the command.`
  return defineTool({
    name: 'bash',
    description: `Run a bash command with the workspace root as working directory. ${confinement} Returns exit code, stdout and stderr (each cut at ${MAX_OUTPUT_BYTES} bytes). The command is killed after timeoutMs (default ${defaultTimeoutMs}).`,
    parameters: {
      command: { type: 'string', required: true, description: 'The bash command line' },
      description: {
        type: 'string',
        description: 'What the command does, in a few words, for the person approving it',
      },
      timeoutMs: { type: 'integer', minimum: 1, maximum: BASH_MAX_TIMEOUT_MS, description: 'Deadline in milliseconds' },
    },
    output: {
      schema: {
        type: 'object',
        properties: {
          exitCode: { type: 'integer', nullable: true, description: 'Null when killed by a signal', required: true },
          stdout: { type: 'string', required: true },
          stderr: { type: 'string', required: true },
          timedOut: { type: 'boolean', required: true },
          truncated: { type: 'boolean', required: true },
          sandbox: { type: 'string', enum: ['bubblewrap', 'none'], required: true },
        },
      },
      render: (_args, value) => [{ type: 'text', text: renderRun(value) }],
    },
    executionMode: 'exclusive',
    annotations: { destructiveHint: true, openWorldHint: true },
    async execute(args, exec): Promise<BashValue> {
      const launch = sandbox.launch(args.command, exec.escalated)
      const run = await runShellCommand(launch, args.timeoutMs ?? defaultTimeoutMs, exec.signal)
      return { ...run, sandbox: sandbox.kind }
    },
  })
}

function renderRun(value: BashValue): string {
  const status = value.timedOut ? 'timed out and was killed' : `exit code ${value.exitCode ?? 'none (killed)'}`
  const parts = [status]
  if (value.stdout !== '') parts.push(`stdout:\n${value.stdout.replace(/\n$/, '')}`)
  if (value.stderr !== '') parts.push(`stderr:\n${value.stderr.replace(/\n$/, '')}`)
  if (value.truncated) parts.push(`(output cut at ${MAX_OUTPUT_BYTES} bytes per stream)`)
  return parts.join('\n')
}
