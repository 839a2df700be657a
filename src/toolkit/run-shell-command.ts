import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { ToolErrorCode } from '../errors/error-codes.js'
import { ToolError } from '../errors/tool-error.js'
import type { CgroupBudget } from '../sandbox/cgroup-budget.js'
import type { ShellBudget } from '../sandbox/shell-budget.js'
import { OutputBuffer } from './output-buffer.js'

/** One process to start for a command: the shell itself, or bubblewrap around it. */
export interface ShellLaunch {
  readonly command: string
  readonly args: readonly string[]
  readonly cwd: string
  /** The whole environment of the started process; undefined inherits the host's. */
  readonly env: Readonly<Record<string, string>> | undefined
  /** Bytes written to the process's fd 3 and then closed (a seccomp program for `bwrap --seccomp 3`). */
  readonly fd3?: Buffer
  /** Holds every process of the command under a count and a memory cap, when the host needs or can make them. */
  readonly budget?: ShellBudget
  /** Called once the command and everything it started are gone (mount points of the sandbox, say). */
  readonly cleanUp?: () => void
  /** The descriptor bubblewrap's `--info-fd` writes to: the call settles only once the sandbox's init is gone. */
  readonly bubblewrapInfoFd?: number
}

export interface ShellRun {
  readonly exitCode: number | null
  readonly stdout: string
  readonly stderr: string
  readonly timedOut: boolean
  readonly truncated: boolean
}

/**
 * Runs `launch` in a process group of its own and SIGKILLs the group when the command ends, its deadline passes or
 * `signal` aborts, so nothing it started outlives the call. Rejects only with `signal.reason`, or a `ToolError` when
 * the process cannot start (a command line past the kernel's limit, say).
 */
export function runShellCommand(launch: ShellLaunch, timeoutMs: number, signal: AbortSignal): Promise<ShellRun> {
  signal.throwIfAborted()
  return new Promise((resolve, reject) => {
    let child: ChildProcess
    try {
      child = spawn(launch.command, [...launch.args], {
        cwd: launch.cwd,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe', ...extraDescriptors(launch)],
        ...(launch.env === undefined ? {} : { env: { ...launch.env } }),
      })
    } catch (error) {
      launch.budget?.release()
      launch.cleanUp?.()
      return reject(startFailure(error as Error))
    }
    if (launch.fd3 !== undefined) {
      const channel = child.stdio[3] as NodeJS.WritableStream & { on(event: 'error', listener: () => void): void }
      channel.on('error', () => {})
      channel.end(launch.fd3)
    }
    let sandboxInit: number | undefined
    if (launch.bubblewrapInfoFd !== undefined) {
      let info = ''
      const channel = child.stdio[launch.bubblewrapInfoFd] as NodeJS.ReadableStream
      channel.on('error', () => {})
      channel.on('data', (chunk: Buffer) => {
        if (info.length < 4096) info += chunk.toString('utf8')
        const found = /"child-pid"\s*:\s*(\d+)/.exec(info)
        if (found !== null) sandboxInit = Number(found[1])
      })
    }
    const stdout = new OutputBuffer()
    const stderr = new OutputBuffer()
    let timedOut = false
    const killAll = () => {
      for (const target of [child.pid === undefined ? undefined : -child.pid, sandboxInit]) {
        try {
          if (target !== undefined) process.kill(target, 'SIGKILL')
        } catch {
          // already gone
        }
      }
      if (launch.budget !== undefined) killBudget(launch.budget)
    }
    const timer = setTimeout(() => {
      timedOut = true
      killAll()
    }, timeoutMs)
    signal.addEventListener('abort', killAll, { once: true })
    const settle = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', killAll)
      killAll()
      launch.budget?.release()
      launch.cleanUp?.()
    }
    child.stdout?.on('data', (chunk: Buffer) => stdout.append(chunk))
    child.stderr?.on('data', (chunk: Buffer) => stderr.append(chunk))
    // The command is done once its shell exits: what it left running in the background goes with it.
    child.on('exit', killAll)
    child.on('error', (error) => {
      settle()
      reject(startFailure(error))
    })
    child.on('close', async (exitCode) => {
      clearTimeout(timer)
      killAll()
      // bubblewrap exits with its command; what the command left running dies with the sandbox's init, a moment later.
      await untilGone(sandboxInit, launch.budget)
      // Asked before the cgroup is released: its kill count goes with it.
      const memory = launch.budget?.memory
      const killedForMemory = memory?.killedForMemory() === true
      settle()
      if (signal.aborted) return reject(signal.reason)
      if (memory !== undefined && killedForMemory) return reject(overMemory(memory.maxBytes))
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

function extraDescriptors(launch: ShellLaunch): 'pipe'[] {
  const highest = Math.max(launch.fd3 === undefined ? 2 : 3, launch.bubblewrapInfoFd ?? 2)
  return Array.from({ length: highest - 2 }, () => 'pipe' as const)
}

const QUIET_DEADLINE_MS = 2_000

/** Waits (briefly, bounded) until the sandbox's init has exited and the budget's cgroup holds no process. */
async function untilGone(init: number | undefined, budget: CgroupBudget | undefined): Promise<void> {
  const deadline = Date.now() + QUIET_DEADLINE_MS
  while (Date.now() < deadline && (isRunning(init) || (budget !== undefined && holdsProcesses(budget)))) {
    if (budget !== undefined) killBudget(budget)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** Whether `pid` is still a live process (a zombie has already ended everything in its pid namespace). */
function isRunning(pid: number | undefined): boolean {
  if (pid === undefined) return false
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

function holdsProcesses(budget: CgroupBudget): boolean {
  try {
    return readFileSync(budget.procsFile, 'utf8').trim() !== ''
  } catch {
    return false
  }
}

/** Spawning fails (synchronously or as an event) for causes outside the command's control, or its sheer size. */
function startFailure(error: Error): ToolError {
  const tooLong = (error as NodeJS.ErrnoException).code === 'E2BIG' ? ' (the command line is too long)' : ''
  return new ToolError({
    code: ToolErrorCode.TOOL_ERROR,
    message: `the command could not start: ${error.message}${tooLong}`,
  })
}

/** The kernel killed the command inside its memory cgroup: a failure of the call, not an exit code to read. */
function overMemory(maxBytes: number): ToolError {
  const megabytes = Math.round(maxBytes / (1024 * 1024))
  return new ToolError({
    code: ToolErrorCode.TOOL_ERROR,
    message: `the command went past its ${megabytes} MB memory budget (its processes, its /tmp and /dev/shm files and the kernel memory they hold) and was killed`,
  })
}

/** Every process still in the budget's cgroup, whatever group or session it moved to. */
function killBudget(budget: CgroupBudget): void {
  let pids: string[]
  try {
    pids = readFileSync(budget.procsFile, 'utf8').split('\n')
  } catch {
    return
  }
  for (const pid of pids) {
    if (pid === '') continue
    try {
      process.kill(Number(pid), 'SIGKILL')
    } catch {
      // already gone
    }
  }
}
