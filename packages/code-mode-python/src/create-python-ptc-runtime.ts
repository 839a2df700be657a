import { codeModeRuntime } from '@qilin-tools/code-mode/internal/code-mode.js'
import { PtcFailureKind } from '@qilin-tools/code-mode/internal/failure-kinds.js'
import { ptcFailure } from '@qilin-tools/code-mode/internal/failure-text.js'
import { type PtcLimits, resolvePtcLimits, runTimeoutMs } from '@qilin-tools/code-mode/internal/ptc-limits.js'
import type { PtcRunOutcome, PtcRunRequest, PtcRuntime } from '@qilin-tools/code-mode/internal/ptc-port.js'
import {
  failureOutcome,
  type ProgramRecord,
  successOutcome,
} from '@qilin-tools/code-mode/internal/render-outer-result.js'
import { RunAdmission } from '@qilin-tools/code-mode/internal/run-admission.js'
import { offerEscalation } from '@qilin-tools/code-mode/internal/run-code-schema.js'
import type { SandboxEscalation } from '@qilin-tools/sandbox/internal/sandbox-escalation.js'
import { byteLength } from 'qilin-tools/internal/definition/byte-length.js'
import {
  type ConfinementLayer,
  type ConfinementPlan,
  type ConfinementProfile,
  planConfinement,
  probeLayers,
} from './confinement.js'
import { findPython, type PythonInterpreter } from './find-python.js'
import { presentPython } from './present-python.js'
import { declarePython } from './render-python-sdk.js'
import { runOnRunner } from './run-on-runner.js'
import { defaultPoolSize, RunnerPool } from './runner-pool.js'
import { RunnerProcess, type RunnerSettings } from './runner-process.js'

/** How `createPythonPtcRuntime` sets up Python code mode: limits, interpreter, bubblewrap and confinement. */
export interface PythonPtcRuntimeOptions {
  /** Overrides of the shared limits (120 s deadline, 600 s cap, output and result caps, …). @default `defaultPtcLimits` */
  readonly limits?: Partial<PtcLimits>
  /** The interpreter (a path or a command on PATH). @default `/usr/bin/python3`, then `python3.1x`/`python3` on PATH */
  readonly python?: string
  /** The bubblewrap executable. @default `bwrap` on PATH */
  readonly bubblewrap?: string
  /** `full` refuses to start unless every layer works; `partial` and `none` are weaker and say so. @default `full` */
  readonly confinement?: ConfinementProfile
  /** Exactly these layers (tests use it to check one layer at a time); refuses to start when one is missing. @default the layers `confinement` asks for */
  readonly layers?: readonly ConfinementLayer[]
  /** Address-space limit of the runner process (RLIMIT_AS). @default the heap limit plus 256 MB for the interpreter */
  readonly memoryBytes?: number
  /** Largest file a program may write (RLIMIT_FSIZE). @default 16 MB */
  readonly fileBytes?: number
  /** Size of the private `/tmp` under bubblewrap (0.8 or newer). @default 64 MB */
  readonly tmpBytes?: number
  /**
   * What a run may pin in all, in a memory cgroup of its own: its memory, its `/tmp` files and the kernel memory
   * they hold (inodes, page tables), which no rlimit counts. Past it the kernel kills the run. Needs a writable
   * memory cgroup (root, or a delegated cgroup v2); without one the other limits hold alone, and a flood of empty
   * files or directories in `/tmp` is bounded only by the machine's memory.
   * @default `memoryBytes` plus `tmpBytes`
   */
  readonly totalMemoryBytes?: number
  /**
   * Runners kept confined and ready ahead of runs (a whole number; 0 spawns each on demand). Escalated runs never
   * take one: each gets a runner of its own.
   * An idle runner holds about 20 MiB and no CPU, so the default does not follow the cores: one runner for every
   * run admission lets run at once (`maxConcurrentRuns`, and `maxSandboxMemoryBytes` ÷ `totalMemoryBytes`), while
   * idle runners stay within 1/64 of the machine's memory at 32 MiB each (12 on a 24 GiB machine).
   * @default one per run admitted at once, at most 1/64 of `os.totalmem()` ÷ 32 MiB
   */
  readonly poolSize?: number
  /**
   * What an approved `require_escalated` run gets, for that run only: its `bash` sub-calls read the toolkit's own
   * options, and the program's runner is started with these writable paths; with `network`, in the host network
   * namespace, with IPv4 and IPv6 sockets allowed by seccomp and TCP by Landlock (processes and programs stay
   * refused). Without it `run_code` does not offer `sandbox_permissions`.
   * @default none
   */
  readonly escalation?: SandboxEscalation
  /**
   * Programs this runtime runs at once, escalated ones included; more wait their turn first in, first out. The wait
   * counts against each program's own deadline, and a cancelled program leaves the queue.
   * @default 4
   */
  readonly maxConcurrentRuns?: number
  /**
   * The `totalMemoryBytes` of the programs running at once, summed; a program waits while its share would pass it.
   * @default `maxConcurrentRuns` × `totalMemoryBytes`
   */
  readonly maxSandboxMemoryBytes?: number
  /** Programs that may wait for a turn; one more fails at once (`busy`), telling the model to retry later. @default 64 */
  readonly maxQueuedRuns?: number
}

/** Python code mode in a confined runner process, with its limits, interpreter and confinement plan. */
export interface PythonPtcRuntime extends PtcRuntime {
  readonly limits: PtcLimits
  readonly interpreter: PythonInterpreter
  readonly confinement: ConfinementPlan
  /** Resolves when the pool holds its ready runners. */
  warm(): Promise<void>
}

const emptyRecord: ProgramRecord = { lines: [], subResults: [] }

/**
 * Python code mode: each program runs in a fresh CPython process, confined by bubblewrap, Landlock,
 * seccomp and resource limits, and talks to the host in JSON lines over fd 3. Throws (refuses to start)
 * when the interpreter or a required confinement layer is missing, naming what to install.
 */
export function createPythonPtcRuntime(options: PythonPtcRuntimeOptions = {}): PythonPtcRuntime {
  const limits = resolvePtcLimits(options.limits)
  const interpreter = findPython(options.python)
  if (!('executable' in interpreter)) throw new Error(`The Python PTC runtime refuses to start: ${interpreter.problem}`)
  const plan = planConfinement(
    options.confinement ?? 'full',
    probeLayers(interpreter, options.bubblewrap),
    options.layers,
  )
  const memoryBytes = options.memoryBytes ?? limits.heapMegabytes * 1024 * 1024 + 256 * 1024 * 1024
  const tmpBytes = options.tmpBytes ?? 64 * 1024 * 1024
  const totalMemoryBytes = options.totalMemoryBytes ?? memoryBytes + tmpBytes
  const settings: RunnerSettings = {
    interpreter,
    plan,
    memoryBytes,
    fileBytes: options.fileBytes ?? 16 * 1024 * 1024,
    tmpBytes,
    totalMemoryBytes,
    cpuSeconds: Math.ceil(limits.maxTimeoutMs / 1000) + 2,
    outputBytes: limits.maxOutputBytes,
    resultBytes: limits.maxResultBytes,
    // Tool arguments may be large (a file's content); the input budget bounds what a message may carry.
    maxLineBytes: Math.max(limits.maxInputBytes, 16 * 1024 * 1024),
  }
  const maxConcurrentRuns = options.maxConcurrentRuns ?? 4
  const maxSandboxMemoryBytes = options.maxSandboxMemoryBytes ?? maxConcurrentRuns * totalMemoryBytes
  const admission = new RunAdmission(
    { maxConcurrentRuns, maxSandboxMemoryBytes, maxQueuedRuns: options.maxQueuedRuns ?? 64 },
    totalMemoryBytes,
  )
  const pool = new RunnerPool(
    options.poolSize ?? defaultPoolSize({ maxConcurrentRuns, maxSandboxMemoryBytes, runMemoryBytes: totalMemoryBytes }),
    settings,
  )
  const escalated = options.escalation === undefined ? undefined : { ...settings, escalation: options.escalation }
  const sandbox = { profile: plan.profile, layers: [...plan.layers] }

  /** A weaker sandbox than `full` is stated in every result's metadata. */
  async function run(request: PtcRunRequest): Promise<PtcRunOutcome> {
    const outcome = await runProgram(request)
    return plan.profile === 'full' ? outcome : { ...outcome, metadata: { ...outcome.metadata, sandbox } }
  }

  async function runProgram(request: PtcRunRequest): Promise<PtcRunOutcome> {
    if (byteLength(request.code) > limits.maxSourceBytes) {
      return failureOutcome(emptyRecord, ptcFailure(PtcFailureKind.SOURCE_LIMIT, limits))
    }
    if (request.signal.aborted) {
      return failureOutcome(emptyRecord, ptcFailure(PtcFailureKind.ABORTED))
    }
    const timeoutMs = runTimeoutMs(request.timeoutMs, limits)
    const deadlineAt = performance.now() + timeoutMs
    const turn = await admission.admit({ memoryBytes: totalMemoryBytes, deadlineAt, signal: request.signal })
    if (!turn.ok) return failureOutcome(emptyRecord, turn.failure)
    try {
      // The wait for a turn counts against the deadline; the program gets what is left of it.
      return await runAdmitted(request, Math.max(1, timeoutMs - Math.ceil(turn.waitedMs)))
    } finally {
      turn.release()
    }
  }

  async function runAdmitted(request: PtcRunRequest, timeoutMs: number): Promise<PtcRunOutcome> {
    const escalatedRun = request.permissions === 'require_escalated' && escalated !== undefined
    try {
      return await runOnAcquired(request, timeoutMs, escalatedRun)
    } finally {
      // Spawned on the next turn, after this result is handed back; an escalated run took nothing from the pool.
      if (!escalatedRun) pool.refillSoon()
    }
  }

  async function runOnAcquired(request: PtcRunRequest, timeoutMs: number, escalatedRun: boolean) {
    let runner: Awaited<ReturnType<RunnerPool['acquire']>>
    try {
      runner = escalatedRun && escalated !== undefined ? await startRunner(escalated) : await pool.acquire()
    } catch (error) {
      return failureOutcome(emptyRecord, { kind: PtcFailureKind.SANDBOX, message: (error as Error).message })
    }
    const result = await runOnRunner(runner, request, { limits, timeoutMs })
    return result.ok ? successOutcome(result.record, result.value) : failureOutcome(result.record, result.failure)
  }

  return codeModeRuntime({
    language: 'python',
    limits,
    interpreter,
    confinement: plan,
    present: (tools, mode, index) => offerEscalation(presentPython(tools, mode, limits, index), options.escalation),
    declare: declarePython,
    run,
    warm: () => pool.warm(),
    close: () => pool.close(),
  })
}

/** A runner of its own, outside the pool: an escalated run's wider sandbox is never reused. */
async function startRunner(settings: RunnerSettings): Promise<RunnerProcess> {
  const runner = new RunnerProcess(settings)
  try {
    await runner.ready
  } catch (error) {
    runner.kill()
    throw error
  }
  return runner
}
