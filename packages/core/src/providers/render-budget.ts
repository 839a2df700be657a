import { brandError } from '../errors/brand.js'

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

/**
 * About how many bytes `value` takes as JSON text (escapes and non-ASCII counted as one character), counting no
 * further than just past `limit`: a 15 MB schema is found too large after reading about `limit` of it.
 */
export function jsonBytesUpTo(value: unknown, limit: number): number {
  let total = 0
  const visit = (node: unknown): void => {
    if (total > limit) return
    if (typeof node === 'string') total += node.length + 2
    else if (Array.isArray(node)) {
      total += 1 + Math.max(1, node.length)
      for (const item of node) {
        if (total > limit) return
        visit(item)
      }
    } else if (typeof node === 'object' && node !== null) {
      total += 2
      let separator = 0
      for (const key in node) {
        if (total > limit) return
        total += separator + key.length + 3
        separator = 1
        visit((node as Record<string, unknown>)[key])
      }
    } else total += String(node).length
  }
  visit(value)
  return total
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
