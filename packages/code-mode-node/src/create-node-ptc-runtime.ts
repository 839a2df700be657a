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
import {
  acceptsWithValidator,
  presentTypeScript,
  type SchemaAccepts,
} from '@qilin-tools/code-mode/internal/ts-sdk/present-typescript.js'
import { declareTypeScript } from '@qilin-tools/code-mode/internal/ts-sdk/render-typescript-sdk.js'
import type { SandboxEscalation } from '@qilin-tools/sandbox/internal/sandbox-escalation.js'
import { byteLength } from 'qilin-tools/internal/definition/byte-length.js'
import { IsolatePool } from './isolate-pool.js'
import { fixMmapThreshold } from './malloc-threshold.js'
import { runInSandbox, type SandboxRunHooks } from './run-in-sandbox.js'
import { stripTypeScript } from './strip-typescript.js'

/** How `createNodePtcRuntime` sets up TypeScript code mode: limits, pool size, argument checks and run hooks. */
export interface NodePtcRuntimeOptions {
  /** Overrides of the default limits (120 s deadline, 600 s cap, 128 MB heap, …). @default `defaultPtcLimits` */
  readonly limits?: Partial<PtcLimits>
  /** Sandboxes kept prepared ahead of runs (a whole number; 0 builds each one on demand). @default 2 */
  readonly poolSize?: number
  /** Decides whether the visible `bash` tool accepts the example call. @default the package validator */
  readonly accepts?: SchemaAccepts
  /** Observes each run's start (benches measure cold start with it). @default none */
  readonly hooks?: SandboxRunHooks
  /**
   * What an approved `require_escalated` run grants its tool calls (the toolkit's `bash` reads it from its own
   * options). Without it `run_code` does not offer `sandbox_permissions`.
   * @default none
   */
  readonly escalation?: SandboxEscalation
  /**
   * Programs this runtime runs at once; more wait their turn first in, first out. The wait counts against each
   * program's own deadline, and a cancelled program leaves the queue.
   * @default 4
   */
  readonly maxConcurrentRuns?: number
  /**
   * The heap limits of the programs running at once, summed, in bytes; a program waits while its heap would pass it.
   * @default `maxConcurrentRuns` × the heap limit (4 × 128 MB)
   */
  readonly maxSandboxMemoryBytes?: number
  /** Programs that may wait for a turn; one more fails at once (`busy`), telling the model to retry later. @default 64 */
  readonly maxQueuedRuns?: number
  /**
   * On glibc, fix malloc's mmap threshold at 64 KiB for the whole process, once, as the qilin-tools command does with
   * `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=65536`: the array buffers a finished program freed then go back to
   * the system (else up to 64 MB per isolate thread stays resident). Every allocation of 64 KiB or more in the process
   * becomes its own mapping. Not done when the host set any `glibc.malloc.*` tunable, nor off glibc.
   * @default true
   */
  readonly fixMmapThreshold?: boolean
}

/** TypeScript code mode in isolated-vm, with its limits and a way to wait for its sandbox pool. */
export interface NodePtcRuntime extends PtcRuntime {
  readonly limits: PtcLimits
  /** Resolves when the pool holds its prepared sandboxes. */
  warm(): Promise<void>
}

const emptyRecord: ProgramRecord = { lines: [], subResults: [] }

/**
 * TypeScript code mode on Node: programs are type-stripped and run in a fresh isolated-vm isolate each,
 * taken from a pre-warmed pool, and talk to the host only in JSON text.
 */
export function createNodePtcRuntime(options: NodePtcRuntimeOptions = {}): NodePtcRuntime {
  const limits = resolvePtcLimits(options.limits)
  if (options.fixMmapThreshold !== false) fixMmapThreshold()
  const pool = new IsolatePool({ size: options.poolSize ?? 2, heapMegabytes: limits.heapMegabytes })
  const accepts = options.accepts ?? acceptsWithValidator
  const heapBytes = limits.heapMegabytes * 1024 * 1024
  const maxConcurrentRuns = options.maxConcurrentRuns ?? 4
  const admission = new RunAdmission(
    {
      maxConcurrentRuns,
      maxSandboxMemoryBytes: options.maxSandboxMemoryBytes ?? maxConcurrentRuns * heapBytes,
      maxQueuedRuns: options.maxQueuedRuns ?? 64,
    },
    heapBytes,
  )

  async function run(request: PtcRunRequest): Promise<PtcRunOutcome> {
    if (byteLength(request.code) > limits.maxSourceBytes) {
      return failureOutcome(emptyRecord, ptcFailure(PtcFailureKind.SOURCE_LIMIT, limits))
    }
    const stripped = await stripTypeScript(request.code)
    if (!stripped.ok) return failureOutcome(emptyRecord, stripped.failure)
    if (request.signal.aborted) {
      return failureOutcome(emptyRecord, ptcFailure(PtcFailureKind.ABORTED))
    }
    const timeoutMs = runTimeoutMs(request.timeoutMs, limits)
    const deadlineAt = performance.now() + timeoutMs
    const turn = await admission.admit({ memoryBytes: heapBytes, deadlineAt, signal: request.signal })
    if (!turn.ok) return failureOutcome(emptyRecord, turn.failure)
    try {
      // The wait for a turn counts against the deadline; the program gets what is left of it.
      return await runAdmitted(stripped.javascript, request, Math.max(1, timeoutMs - Math.ceil(turn.waitedMs)))
    } finally {
      turn.release()
    }
  }

  async function runAdmitted(javascript: string, request: PtcRunRequest, timeoutMs: number): Promise<PtcRunOutcome> {
    // Scheduled for the next turn, after this result is handed back: building an isolate holds the main thread.
    try {
      return await runOnPooledSandbox(javascript, request, timeoutMs)
    } finally {
      pool.refillSoon()
    }
  }

  async function runOnPooledSandbox(
    javascript: string,
    request: PtcRunRequest,
    timeoutMs: number,
  ): Promise<PtcRunOutcome> {
    let sandbox: Awaited<ReturnType<IsolatePool['acquire']>>
    try {
      sandbox = await pool.acquire()
    } catch (error) {
      return failureOutcome(emptyRecord, { kind: PtcFailureKind.SANDBOX, message: String(error) })
    }
    const result = await runInSandbox(sandbox, javascript, request, {
      limits,
      timeoutMs,
      ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
    })
    return result.ok ? successOutcome(result.record, result.value) : failureOutcome(result.record, result.failure)
  }

  return codeModeRuntime({
    language: 'typescript',
    limits,
    present: (tools, mode, index) =>
      offerEscalation(presentTypeScript(tools, mode, { limits, accepts }, index), options.escalation),
    declare: declareTypeScript,
    run,
    async warm() {
      await Promise.all([stripTypeScript(''), pool.warm()])
    },
    close: () => pool.close(),
  })
}
