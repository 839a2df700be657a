import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Duplex } from 'node:stream'
import { defaultShmBytes } from '@qilin-tools/sandbox/internal/bubblewrap-arguments.js'
import { inodesFor, openCappedMounts } from '@qilin-tools/sandbox/internal/capped-tmpfs.js'
import { type MemoryBudget, openMemoryBudget } from '@qilin-tools/sandbox/internal/memory-budget.js'
import type { SandboxEscalation } from '@qilin-tools/sandbox/internal/sandbox-escalation.js'
import type { JsonObject } from 'qilin-tools/internal/json-schema/json-value.js'
import type { ConfinementPlan } from './confinement.js'
import { bubblewrapArguments } from './confinement.js'
import type { PythonInterpreter } from './find-python.js'
import { networkReadPaths } from './network-read-paths.js'
import { RunnerLines } from './runner-lines.js'
import { runnerSeccomp } from './runner-seccomp.js'
import { runnerSource } from './runner-source.js'
import { stopProcessGroup } from './stop-process-group.js'

/** What the runner reports once it has confined itself and waits for a program. */
export interface RunnerReady {
  readonly layers: readonly string[]
  readonly python: string
}

export interface RunnerSettings {
  readonly interpreter: PythonInterpreter
  readonly plan: ConfinementPlan
  readonly memoryBytes: number
  readonly fileBytes: number
  /** Size of the private `/tmp` inside bubblewrap. */
  readonly tmpBytes: number
  readonly cpuSeconds: number
  /**
   * What the runner may pin in all, counted by the kernel in a memory cgroup of its own: its pages, its `/tmp` files
   * and the kernel memory they hold (inodes, dentries, page tables), which no rlimit sees. Where this host cannot
   * make the cgroup (usually: not root and no delegated cgroup), the other bounds hold alone.
   */
  readonly totalMemoryBytes?: number
  /** Printed bytes and returned-value bytes, counted inside the runner (and again by the host). */
  readonly outputBytes: number
  readonly resultBytes: number
  /** Longest line the host accepts from the runner; a longer one ends the run as a sandbox failure. */
  readonly maxLineBytes: number
  /** The wider sandbox of an approved `require_escalated` run; such a runner serves that run alone. */
  readonly escalation?: SandboxEscalation
}

type Listener = (message: JsonObject) => void

/** How a running program's calls over the argument limit are answered; they never reach the listener. */
export interface OversizedCalls {
  readonly maxArgumentBytes: number
  refuse(id: number, name: string): void
}

/**
 * One runner process: spawned (inside bubblewrap when the plan says so) with a JSON-lines channel on fd 3,
 * in a process group of its own so one SIGKILL ends it and anything it left behind.
 */
export class RunnerProcess {
  readonly ready: Promise<RunnerReady>
  /** Resolves when the process has exited, with why. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  private readonly child: ChildProcess
  private readonly channel: Duplex
  private listener: Listener | undefined
  private calls: OversizedCalls | undefined
  private readonly lines = new RunnerLines(() => ({
    maxLineBytes: this.settings.maxLineBytes,
    maxArgumentBytes: this.calls?.maxArgumentBytes,
  }))
  private stderrTail = ''
  private readonly workDirectory: string | undefined
  private readonly budget: MemoryBudget | undefined
  private readonly releaseMounts: (() => void) | undefined
  private failure: string | undefined
  private violation: string | undefined

  constructor(private readonly settings: RunnerSettings) {
    const { command, args, workDirectory, budget, releaseMounts } = runnerCommand(settings)
    this.workDirectory = workDirectory
    this.budget = budget
    this.releaseMounts = releaseMounts
    this.child = spawn(command, args, {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      detached: true,
      env: { LC_ALL: 'C.UTF-8' },
      ...(workDirectory === undefined ? {} : { cwd: workDirectory }),
    })
    this.channel = this.child.stdio[3] as Duplex
    this.channel.setEncoding('utf8')
    this.child.stderr?.setEncoding('utf8')
    this.child.stderr?.on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-4000)
    })
    this.exited = new Promise((resolve) => {
      // 'close', not 'exit': only after every stdio stream has ended has the runner's last message been read.
      this.child.once('close', (code, signal) => {
        if (this.budget?.killedForMemory() === true) {
          const megabytes = Math.round(this.budget.maxBytes / (1024 * 1024))
          this.failure ??= `the program went past its ${megabytes} MB memory budget (its memory, its /tmp files and the kernel memory they hold) and was killed`
        }
        this.cleanUp()
        resolve({ code, signal })
      })
      this.child.once('error', (error) => {
        this.failure ??= error.message
        this.cleanUp()
        resolve({ code: null, signal: null })
      })
    })
    this.ready = new Promise((resolve, reject) => {
      this.listener = (message) => {
        if (message.t === 'ready') resolve(message as unknown as RunnerReady)
        else reject(new Error(`the Python runner could not confine itself: ${String(message.message)}`))
      }
      void this.exited.then(() =>
        reject(new Error(`the Python runner exited before it was ready: ${this.diagnostics()}`)),
      )
    })
    this.ready.catch(() => {})
    this.channel.on('data', (text: string) => this.receive(text))
    this.channel.on('error', () => {})
  }

  /** Where every later message goes (one listener at a time), and who answers calls too large to read. */
  listen(listener: Listener, calls?: OversizedCalls): void {
    this.listener = listener
    this.calls = calls
  }

  send(message: JsonObject): void {
    if (!this.channel.writable) return
    this.channel.write(`${JSON.stringify(message)}\n`)
  }

  /** SIGKILL to the whole process group: the runner, bubblewrap and anything started under them. */
  kill(): void {
    if (this.child.pid === undefined || this.child.exitCode !== null || this.child.signalCode !== null) return
    try {
      process.kill(-this.child.pid, 'SIGKILL')
    } catch {
      this.child.kill('SIGKILL')
    }
  }

  /** Kills the runner and resolves once it has gone, however its sandbox's start-up was cut (`stopProcessGroup`). */
  stop(): Promise<void> {
    return stopProcessGroup(this.child, this.exited)
  }

  /** Whether this process keeps Node running (a pooled, idle process should not). */
  hold(held: boolean): void {
    const handles = [this.child, this.channel as unknown as { ref(): void; unref(): void }, this.child.stderr]
    for (const handle of handles) {
      const refable = handle as unknown as { ref?: () => void; unref?: () => void } | null
      if (held) refable?.ref?.()
      else refable?.unref?.()
    }
  }

  /** A protocol violation seen on the channel (the process was killed for it), if any. */
  get protocolProblem(): string | undefined {
    return this.violation
  }

  /** What the host itself saw end the process (its memory budget, a failed spawn), if anything. */
  get hostProblem(): string | undefined {
    return this.violation === undefined ? this.failure : undefined
  }

  /** The last of the runner's stderr, as it wrote it. */
  get stderr(): string {
    return this.stderrTail.trim()
  }

  /** The last of stderr (interpreter or bubblewrap errors), for failures that are not the program's. */
  diagnostics(): string {
    return this.failure ?? (this.stderrTail.trim() || 'no diagnostics')
  }

  private receive(text: string): void {
    for (const line of this.lines.read(text)) {
      if (line.kind === 'message') this.listener?.(line.message)
      else if (line.kind === 'oversized-call') this.calls?.refuse(line.id, line.name)
      else {
        this.violation = line.problem
        this.failure = line.problem
        this.kill()
        return
      }
    }
  }

  private cleanUp(): void {
    if (this.workDirectory !== undefined) rmSync(this.workDirectory, { recursive: true, force: true })
    this.budget?.release()
    this.releaseMounts?.()
  }
}

/**
 * Descriptors a program may hold (RLIMIT_NOFILE). Granted the network, each socket it opens to a host service
 * costs that service a descriptor too: the cap keeps a flood well under a host's own limit.
 */
const runnerOpenFiles = 1024

interface RunnerCommand {
  readonly command: string
  readonly args: readonly string[]
  readonly workDirectory?: string
  readonly budget?: MemoryBudget
  /** Removes the mount points of the runner's inode-capped `/tmp` and `/dev/shm` once it has exited. */
  readonly releaseMounts?: () => void
}

function runnerCommand(settings: RunnerSettings): RunnerCommand {
  const launch = confinedCommand(settings)
  const budget = settings.plan.layers.includes('rlimits') ? runnerBudget(settings.totalMemoryBytes) : undefined
  if (budget === undefined) return launch
  // The budget takes the process before the runner (or bubblewrap) starts, so everything under it is counted.
  const enter = 'echo $$ > "$0" && exec "$@"'
  return {
    ...launch,
    command: '/bin/sh',
    args: ['-c', enter, budget.procsFile, launch.command, ...launch.args],
    budget,
  }
}

function runnerBudget(totalMemoryBytes: number | undefined): MemoryBudget | undefined {
  if (totalMemoryBytes === undefined) return undefined
  const budget = openMemoryBudget(totalMemoryBytes)
  return 'problem' in budget ? undefined : budget
}

function confinedCommand(settings: RunnerSettings): RunnerCommand {
  const { interpreter, plan } = settings
  const inBubblewrap = plan.bubblewrap !== undefined
  const workDirectory = inBubblewrap ? undefined : mkdtempSync(join(tmpdir(), 'qilin-ptc-'))
  // Only an escalated runner carries an escalation, and it serves that one approved run.
  const network = settings.escalation?.network === true
  const config = {
    layers: plan.layers,
    limits: {
      memoryBytes: settings.memoryBytes,
      fileBytes: settings.fileBytes,
      cpuSeconds: settings.cpuSeconds,
      openFiles: runnerOpenFiles,
      outputBytes: settings.outputBytes,
      resultBytes: settings.resultBytes,
    },
    readPaths: network ? [...networkReadPaths] : [],
    writePaths: [workDirectory ?? '/tmp', ...(settings.escalation?.writablePaths ?? [])],
    network,
    seccomp: plan.layers.includes('seccomp') ? runnerSeccomp(network ? 'networked-program' : 'program') : null,
  }
  const python = [interpreter.executable, '-I', '-S', '-B', '-c', runnerSource, JSON.stringify(config)]
  if (plan.bubblewrap === undefined) {
    const [command = interpreter.executable, ...args] = python
    return workDirectory === undefined ? { command, args } : { command, args, workDirectory }
  }
  const mounts = openCappedMounts(
    { bytes: settings.tmpBytes, inodes: inodesFor(settings.tmpBytes) },
    { bytes: defaultShmBytes, inodes: inodesFor(defaultShmBytes) },
  )
  if ('problem' in mounts) {
    // No namespace of our own here: bubblewrap's sized tmpfs mounts stand, their inodes uncapped.
    const sandbox = bubblewrapArguments(plan.bubblewrap, interpreter, settings.tmpBytes, settings.escalation)
    return { command: plan.bubblewrap.executable, args: [...sandbox, ...python] }
  }
  const identity = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 }
  const capped = { tmpSource: mounts.tmpSource, shmSource: mounts.shmSource, identity }
  const sandbox = bubblewrapArguments(plan.bubblewrap, interpreter, settings.tmpBytes, settings.escalation, capped)
  const [command = plan.bubblewrap.executable, ...args] = mounts.wrap([
    plan.bubblewrap.executable,
    ...sandbox,
    ...python,
  ])
  return { command, args, releaseMounts: mounts.release }
}
