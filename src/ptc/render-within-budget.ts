import { byteLength } from '../definition/byte-length.js'
import { thrownMessage } from '../errors/thrown-message.js'
import type { OmittedTool } from '../registry/tool-schema.js'
import { isRenderBudgetError, jsonBytesUpTo, type RenderBudget, WorkMeter } from './render-budget.js'

/** A rendered text and the tools it leaves out, each with its reason. */
export interface BudgetedRender {
  readonly text: string
  readonly omitted: readonly OmittedTool[]
}

interface Named {
  readonly name: string
}

interface Fitting<Tool> {
  readonly tool: Tool
  /** Bytes of the text rendered for this tool alone. */
  readonly bytes: number
  readonly steps: number
}

/** How many times its output budget a tool's schema may take before it is left out unread. */
const inputFactor = 4

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
  const fitting: Fitting<Tool>[] = []
  const inputLimit = inputFactor * budget.maxToolBytes
  for (const tool of tools) {
    // Reading a schema many times the output budget is already too much work; declarations are rarely larger.
    const measured = attempt(() => (jsonBytesUpTo(tool, inputLimit) > inputLimit ? 'over' : ''))
    if (!measured.ok || measured.text === 'over') {
      const reason = measured.ok ? `its schema takes more than ${inputLimit} bytes` : measured.reason
      omitted.push({ name: tool.name, reason })
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
  const together = renderTogether(tools, fitting, render, budget)
  omitted.push(...together.omitted)
  return { text: together.text, omitted: [...omitted].sort(compareNames) }
}

/**
 * The tools that fit alone, rendered together within `maxTotalBytes`. Sizes alone overstate what a tool adds
 * (shared lines count in each), so the largest are dropped by that estimate, then by the real text, and then the
 * last dropped are taken back while the real text still fits.
 */
function renderTogether<Tool extends Named>(
  tools: readonly Tool[],
  fitting: readonly Fitting<Tool>[],
  render: (tools: readonly Tool[], meter: WorkMeter) => string,
  budget: RenderBudget,
): BudgetedRender {
  const kept = new Set(fitting.map((entry) => entry.tool))
  const renderKept = (): Attempt => {
    const chosen = tools.filter((tool) => kept.has(tool))
    // Together the tools cost about what they cost alone; the margin only stops a renderer bug running away.
    const steps = fitting.reduce((sum, entry) => sum + (kept.has(entry.tool) ? entry.steps : 0), 0)
    const attempted = attempt(() =>
      render(chosen, new WorkMeter(4 * steps + 10_000, budget.maxToolMs * (chosen.length + 1))),
    )
    return attempted.ok && byteLength(attempted.text) > budget.maxTotalBytes ? { ok: false, reason: 'over' } : attempted
  }
  const emptyBytes = byteLength(render([], WorkMeter.unbounded()))
  const largestFirst = [...fitting].sort(
    (left, right) => right.bytes - left.bytes || compareNames(left.tool, right.tool),
  )
  const dropped: Tool[] = []
  let estimate = fitting.reduce((sum, entry) => sum + entry.bytes - emptyBytes, emptyBytes)
  for (const entry of largestFirst) {
    if (estimate <= budget.maxTotalBytes) break
    kept.delete(entry.tool)
    dropped.push(entry.tool)
    estimate -= entry.bytes - emptyBytes
  }
  let result = renderKept()
  for (const entry of largestFirst) {
    if (result.ok || kept.size === 0) break
    if (!kept.has(entry.tool)) continue
    kept.delete(entry.tool)
    dropped.push(entry.tool)
    result = renderKept()
  }
  if (result.ok) {
    while (dropped.length > 0) {
      const last = dropped[dropped.length - 1] as Tool
      kept.add(last)
      const retried = renderKept()
      if (!retried.ok) {
        kept.delete(last)
        break
      }
      dropped.pop()
      result = retried
    }
  }
  const reason = `the whole text would pass ${budget.maxTotalBytes} bytes; this tool is among the largest`
  const omitted = dropped.map((tool) => ({ name: tool.name, reason }))
  if (result.ok) return { text: result.text, omitted }
  // Only a renderer bug gets here: the tools fit alone but not together. The text then declares none of them.
  const failure = result.reason
  for (const tool of kept) omitted.push({ name: tool.name, reason: `rendered with the others, ${failure}` })
  return { text: render([], WorkMeter.unbounded()), omitted }
}

type Attempt = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string }

function attempt(render: () => string): Attempt {
  try {
    return { ok: true, text: render() }
  } catch (error) {
    if (isRenderBudgetError(error)) return { ok: false, reason: error.message }
    // A RangeError (string or stack too large) is still this tool's fault, and still costs only this tool.
    return { ok: false, reason: `rendering it failed: ${thrownMessage(error)}` }
  }
}

function compareNames(left: Named, right: Named): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0
}
