/** Every bound a code-mode runtime enforces on one run. Each breach is its own failure kind. */
export interface PtcLimits {
  /** Deadline when the model gives no `timeoutMs`; includes nested tool and approval waits. */
  readonly defaultTimeoutMs: number
  /** The most a model may ask for with `timeoutMs`. */
  readonly maxTimeoutMs: number
  /** Heap of one sandbox, in megabytes. */
  readonly heapMegabytes: number
  /** Bytes of printed output (UTF-8) a program may produce. */
  readonly maxOutputBytes: number
  /** Bytes of the returned value as JSON text. */
  readonly maxResultBytes: number
  /** Bytes of the program text. */
  readonly maxSourceBytes: number
  /** Tool calls one run may make. */
  readonly maxSubCalls: number
  /** Bytes of tool results (JSON text) that may enter the program in total. */
  readonly maxInputBytes: number
  /** Bytes of one tool call's arguments (JSON text); a larger call is refused inside the program. */
  readonly maxArgumentBytes: number
  /** Timers one program may have pending at once. */
  readonly maxPendingTimers: number
  /** Bytes of prompt text (`run_code` and the SDK sections) for one visible set; the largest tools are left out past it. */
  readonly maxPromptBytes: number
}

/** The limits both code-mode runtimes apply where their options override none. */
export const defaultPtcLimits: PtcLimits = {
  defaultTimeoutMs: 120_000,
  maxTimeoutMs: 600_000,
  heapMegabytes: 128,
  maxOutputBytes: 100_000,
  maxResultBytes: 100_000,
  maxSourceBytes: 200_000,
  maxSubCalls: 1_000,
  maxInputBytes: 64 * 1024 * 1024,
  maxArgumentBytes: 1024 * 1024,
  maxPendingTimers: 1_000,
  maxPromptBytes: 1024 * 1024,
}

/** The limits with the caller's overrides applied. */
export function resolvePtcLimits(overrides: Partial<PtcLimits> | undefined): PtcLimits {
  return { ...defaultPtcLimits, ...overrides }
}

/** The deadline of one run: the model's request, or the default, never above the cap nor below 1 ms. */
export function runTimeoutMs(requested: number | undefined, limits: PtcLimits): number {
  if (requested === undefined || !Number.isFinite(requested)) return limits.defaultTimeoutMs
  return Math.min(limits.maxTimeoutMs, Math.max(1, Math.floor(requested)))
}
