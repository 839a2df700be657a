import type { PtcRunOutcome, PtcRunRequest, PtcRuntime } from '../../pipeline/ptc-port.js'
import type { SandboxEscalation } from '../../sandbox/sandbox-escalation.js'
import { byteLength } from '../byte-length.js'
import { PtcFailureKind } from '../failure-kinds.js'
import { type PtcLimits, resolvePtcLimits, runTimeoutMs } from '../ptc-limits.js'
import { failureOutcome, type ProgramRecord, successOutcome } from '../render-outer-result.js'
import { offerEscalation } from '../run-code-schema.js'
import { acceptsWithValidator, presentTypeScript, type SchemaAccepts } from '../ts-sdk/present-typescript.js'
import { IsolatePool } from './isolate-pool.js'
import { runInSandbox, type SandboxRunHooks } from './run-in-sandbox.js'
import { stripTypeScript } from './strip-typescript.js'

/** How `createNodePtcRuntime` sets up TypeScript code mode: limits, pool size, argument checks and run hooks. */
export interface NodePtcRuntimeOptions {
  /** Overrides of the default limits (120 s deadline, 600 s cap, 128 MB heap, …). @default `defaultPtcLimits` */
  readonly limits?: Partial<PtcLimits>
  /** Sandboxes kept prepared ahead of runs; 0 builds each one on demand. @default 2 */
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
  const pool = new IsolatePool({ size: options.poolSize ?? 2, heapMegabytes: limits.heapMegabytes })
  const accepts = options.accepts ?? acceptsWithValidator

  async function run(request: PtcRunRequest): Promise<PtcRunOutcome> {
    if (byteLength(request.code) > limits.maxSourceBytes) {
      return failureOutcome(emptyRecord, {
        kind: PtcFailureKind.SOURCE_LIMIT,
        message: `the program is longer than ${limits.maxSourceBytes} bytes`,
      })
    }
    const stripped = await stripTypeScript(request.code)
    if (!stripped.ok) return failureOutcome(emptyRecord, stripped.failure)
    if (request.signal.aborted) {
      return failureOutcome(emptyRecord, { kind: PtcFailureKind.ABORTED, message: 'the run was cancelled' })
    }
    let sandbox: Awaited<ReturnType<IsolatePool['acquire']>>
    try {
      sandbox = await pool.acquire()
    } catch (error) {
      return failureOutcome(emptyRecord, { kind: PtcFailureKind.SANDBOX, message: String(error) })
    }
    const result = await runInSandbox(sandbox, stripped.javascript, request, {
      limits,
      timeoutMs: runTimeoutMs(request.timeoutMs, limits),
      ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
    }).finally(() => pool.refill())
    return result.ok ? successOutcome(result.record, result.value) : failureOutcome(result.record, result.failure)
  }

  return {
    language: 'typescript',
    limits,
    present: (tools, mode) => offerEscalation(presentTypeScript(tools, mode, { limits, accepts }), options.escalation),
    run,
    async warm() {
      await Promise.all([stripTypeScript(''), pool.warm()])
    },
    close: () => pool.close(),
  }
}
