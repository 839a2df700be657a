import { byteLength } from '../definition/byte-length.js'
import { brandError } from '../errors/brand.js'
import type { PromptSection, ToolSchema } from '../registry/tool-schema.js'
import type { PtcLimits } from './ptc-limits.js'

export { jsonBytesUpTo } from '../json-schema/json-bytes.js'

/**
 * What rendering one tool may cost, and what the whole rendered text may take. A schema comes from a model
 * host, an MCP server or a peer, so it is hostile: a `$ref` fan-out or a huge enum costs that tool alone.
 */
export interface RenderBudget {
  /** UTF-8 bytes one tool's part of the output may take. */
  readonly maxToolBytes: number
  /** Units of work (schema nodes visited, characters built) rendering one tool may spend. */
  readonly maxToolSteps: number
  /** Milliseconds rendering one tool may take. */
  readonly maxToolMs: number
  /** UTF-8 bytes the whole output may take; the largest tools are left out until it fits. */
  readonly maxTotalBytes: number
}

export const defaultRenderBudget: RenderBudget = {
  maxToolBytes: 128 * 1024,
  maxToolSteps: 250_000,
  maxToolMs: 1_000,
  maxTotalBytes: 1024 * 1024,
}

/** The budget of an SDK whose prompt is `runCode` and `sections` around it, within `limits.maxPromptBytes`. */
export function sdkBudget(
  limits: PtcLimits,
  runCode: ToolSchema,
  sectionsWithoutSdk: readonly PromptSection[],
): RenderBudget {
  const around =
    byteLength(JSON.stringify(runCode)) + sectionsWithoutSdk.reduce((sum, section) => sum + byteLength(section.text), 0)
  return { ...defaultRenderBudget, maxTotalBytes: Math.max(0, limits.maxPromptBytes - around) }
}

export type RenderBudgetLimit = 'work' | 'time'

/** Thrown inside a renderer when one tool has spent its budget; the renderer leaves that tool out. */
export class RenderBudgetError extends Error {
  readonly limit: RenderBudgetLimit

  constructor(limit: RenderBudgetLimit, message: string) {
    super(message)
    this.name = 'RenderBudgetError'
    this.limit = limit
  }
}

/** Recognises a RenderBudgetError from any copy of this package or realm. */
export const isRenderBudgetError = brandError(RenderBudgetError, 'RenderBudgetError')

/** Reading the clock costs more than a step, so it is read once per this many units. */
const clockInterval = 4096

/** Counts the work of one render and stops it, by throwing, once it passes its steps or its deadline. */
export class WorkMeter {
  readonly #maxSteps: number
  readonly #maxMs: number
  readonly #deadline: number
  #steps = 0
  #sinceClock = 0

  constructor(maxSteps: number, maxMs: number) {
    this.#maxSteps = maxSteps
    this.#maxMs = maxMs
    this.#deadline = performance.now() + maxMs
  }

  /** A meter that never stops: for callers that render trusted input outside any budget. */
  static unbounded(): WorkMeter {
    return new WorkMeter(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY)
  }

  get steps(): number {
    return this.#steps
  }

  spend(units = 1): void {
    this.#steps += units
    if (this.#steps > this.#maxSteps) {
      throw new RenderBudgetError('work', `rendering it took more than ${this.#maxSteps} steps`)
    }
    this.#sinceClock += units
    if (this.#sinceClock < clockInterval) return
    this.#sinceClock = 0
    if (performance.now() > this.#deadline) {
      throw new RenderBudgetError('time', `rendering it took more than ${this.#maxMs} ms`)
    }
  }
}
