import type { OmittedTool, PromptSection, ToolSchema } from '../registry/tool-schema.js'
import { byteLength } from './byte-length.js'
import type { PtcLimits } from './ptc-limits.js'

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
      total += 1
      for (const key in node) {
        if (total > limit) return
        total += key.length + 4
        visit((node as Record<string, unknown>)[key])
      }
    } else total += String(node).length
  }
  visit(value)
  return total
}

export type RenderBudgetLimit = 'work' | 'time'

const brand = Symbol.for('qilin-tools.RenderBudgetError')

/** Thrown inside a renderer when one tool has spent its budget; the renderer leaves that tool out. */
export class RenderBudgetError extends Error {
  readonly limit: RenderBudgetLimit
  readonly [brand] = true

  constructor(limit: RenderBudgetLimit, message: string) {
    super(message)
    this.name = 'RenderBudgetError'
    this.limit = limit
  }
}

/** Recognises a RenderBudgetError from any copy of this package or realm. */
export function isRenderBudgetError(value: unknown): value is RenderBudgetError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
}

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

/** A rendered text and the tools it leaves out, each with its reason. */
export interface BudgetedRender {
  readonly text: string
  readonly omitted: readonly OmittedTool[]
}

/** How many times its output budget a tool's schema may take before it is left out unread. */
const inputFactor = 4

interface Named {
  readonly name: string
}

/**
 * Renders `tools` so that no tool can take the output down: each tool is first rendered alone under its own
 * meter and size limit, then the tools that fit are rendered together, so the text is exactly what it would
 * be had the left-out tools never been registered. Over `maxTotalBytes`, the largest tools go first.
 */
export function renderWithinBudget<Tool extends Named>(
  tools: readonly Tool[],
  render: (tools: readonly Tool[], meter: WorkMeter) => string,
  budget: RenderBudget,
): BudgetedRender {
  const omitted: OmittedTool[] = []
  const fitting: { tool: Tool; bytes: number; steps: number }[] = []
  for (const tool of tools) {
    // Reading a schema many times the output budget is already too much work; declarations are rarely larger.
    const inputLimit = inputFactor * budget.maxToolBytes
    if (jsonBytesUpTo(tool, inputLimit) > inputLimit) {
      omitted.push({ name: tool.name, reason: `its schema takes more than ${inputLimit} bytes` })
      continue
    }
    const meter = new WorkMeter(budget.maxToolSteps, budget.maxToolMs)
    const alone = attempt(() => render([tool], meter))
    if (!alone.ok) {
      omitted.push({ name: tool.name, reason: alone.reason })
      continue
    }
    const bytes = byteLength(alone.text)
    if (bytes > budget.maxToolBytes) {
      omitted.push({ name: tool.name, reason: `its declarations take ${bytes} bytes, over ${budget.maxToolBytes}` })
      continue
    }
    fitting.push({ tool, bytes, steps: meter.steps })
  }
  const emptyBytes = byteLength(render([], WorkMeter.unbounded()))
  const bySize = [...fitting].sort((left, right) => right.bytes - left.bytes || compareNames(left.tool, right.tool))
  let kept = new Set(fitting.map((entry) => entry.tool))
  let total = fitting.reduce((sum, entry) => sum + entry.bytes - emptyBytes, emptyBytes)
  for (;;) {
    for (const entry of bySize) {
      if (total <= budget.maxTotalBytes) break
      if (!kept.has(entry.tool)) continue
      kept.delete(entry.tool)
      total -= entry.bytes - emptyBytes
      omitted.push({
        name: entry.tool.name,
        reason: `the whole text would pass ${budget.maxTotalBytes} bytes; this tool is among the largest`,
      })
    }
    const chosen = tools.filter((tool) => kept.has(tool))
    // Together the tools cost about what they cost alone; the margin only stops a renderer bug running away.
    const steps = fitting.reduce((sum, entry) => sum + (kept.has(entry.tool) ? entry.steps : 0), 0)
    const meter = new WorkMeter(4 * steps + 10_000, budget.maxToolMs * (chosen.length + 1))
    const together = attempt(() => render(chosen, meter))
    if (!together.ok) {
      for (const tool of chosen)
        omitted.push({ name: tool.name, reason: `rendered with the others, ${together.reason}` })
      return { text: render([], WorkMeter.unbounded()), omitted: sortedOmissions(omitted) }
    }
    total = byteLength(together.text)
    if (total <= budget.maxTotalBytes || kept.size === 0) {
      return { text: together.text, omitted: sortedOmissions(omitted) }
    }
    kept = new Set(chosen)
  }
}

type Attempt = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string }

function attempt(render: () => string): Attempt {
  try {
    return { ok: true, text: render() }
  } catch (error) {
    if (isRenderBudgetError(error)) return { ok: false, reason: error.message }
    // A RangeError (string or stack too large) is still this tool's fault, and still costs only this tool.
    return { ok: false, reason: `rendering it failed: ${error instanceof Error ? error.message : String(error)}` }
  }
}

function compareNames(left: Named, right: Named): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0
}

function sortedOmissions(omitted: readonly OmittedTool[]): OmittedTool[] {
  return [...omitted].sort(compareNames)
}
