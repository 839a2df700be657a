import { spawn } from 'node:child_process'
import { defineTool } from '../definition/define-tool.js'
import type { Workspace } from './workspace.js'

export const BASH_DEFAULT_TIMEOUT_MS = 120_000
export const BASH_MAX_TIMEOUT_MS = 600_000
const MAX_OUTPUT_BYTES = 64 * 1024

export type BashValue = {
  /** Null when the command was killed by a signal. */
  exitCode: number | null
  stdout: string
  stderr: string
  timedOut: boolean
  /** True when stdout or stderr exceeded the cap and was cut. */
  truncated: boolean
}

export interface BashToolOptions {
  /** Default deadline for a command when the call gives none. Default 120 000 ms. */
  readonly timeoutMs?: number
}

/** Runs a shell command in the workspace root. A non-zero exit is a result, not a failure. */
export function bashTool(workspace: Workspace, options: BashToolOptions = {}) {
  const defaultTimeoutMs = options.timeoutMs ?? BASH_DEFAULT_TIMEOUT_MS
  return defineTool({
    name: 'bash',
    description: `Run a bash command with the workspace root as working directory. Returns exit code, stdout and stderr (each cut at ${MAX_OUTPUT_BYTES} bytes). The command is killed after timeoutMs (default ${defaultTimeoutMs}).`,
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
        },
      },
      render: (_args, value) => [{ type: 'text', text: renderRun(value) }],
    },
    executionMode: 'exclusive',
    annotations: { destructiveHint: true, openWorldHint: true },
    execute: (args, exec) => runCommand(args.command, workspace.root, args.timeoutMs ?? defaultTimeoutMs, exec.signal),
  })
}

function runCommand(command: string, cwd: string, timeoutMs: number, signal: AbortSignal): Promise<BashValue> {
  signal.throwIfAborted()
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    const stdout = new OutputBuffer()
    const stderr = new OutputBuffer()
    let timedOut = false
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // the group already exited
      }
    }
    const timer = setTimeout(() => {
      timedOut = true
      killGroup()
    }, timeoutMs)
    const onAbort = () => killGroup()
    signal.addEventListener('abort', onAbort, { once: true })
    child.stdout.on('data', (chunk: Buffer) => stdout.append(chunk))
    child.stderr.on('data', (chunk: Buffer) => stderr.append(chunk))
    child.on('error', (error) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      reject(error)
    })
    child.on('close', (exitCode) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      if (signal.aborted) return reject(signal.reason)
      resolve({
        exitCode,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        truncated: stdout.truncated || stderr.truncated,
      })
    })
  })
}

class OutputBuffer {
  private readonly chunks: Buffer[] = []
  private size = 0
  truncated = false

  append(chunk: Buffer): void {
    const room = MAX_OUTPUT_BYTES - this.size
    if (chunk.length > room) this.truncated = true
    if (room <= 0) return
    const kept = chunk.subarray(0, room)
    this.chunks.push(kept)
    this.size += kept.length
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8')
  }
}

function renderRun(value: BashValue): string {
  const status = value.timedOut ? 'timed out and was killed' : `exit code ${value.exitCode ?? 'none (killed)'}`
  const parts = [status]
  if (value.stdout !== '') parts.push(`stdout:\n${value.stdout.replace(/\n$/, '')}`)
  if (value.stderr !== '') parts.push(`stderr:\n${value.stderr.replace(/\n$/, '')}`)
  if (value.truncated) parts.push(`(output cut at ${MAX_OUTPUT_BYTES} bytes per stream)`)
  return parts.join('\n')
}
