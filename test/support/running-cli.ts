import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { builtCli } from './built-cli.js'

export interface CliExit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export interface RunningCli {
  readonly child: ChildProcessWithoutNullStreams
  readonly exited: Promise<CliExit>
  /** What it has printed to stdout so far. */
  stdout(): string
}

const started: ChildProcessWithoutNullStreams[] = []

/** Starts the built CLI in `cwd` with stdin left open (a server's client, a person at a terminal). */
export function startCli(args: readonly string[], cwd: string): RunningCli {
  const child = spawn(process.execPath, ['--no-node-snapshot', builtCli, ...args], {
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  started.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk
  })
  const exited = new Promise<CliExit>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  )
  return { child, exited, stdout: () => stdout }
}

/** SIGKILLs every CLI this file started that still runs (for afterEach, after a failed assertion). */
export function killStartedClis(): void {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}
