import type { RenderBudget } from 'qilin-tools/internal/providers/render-budget.js'
import type { PtcToolView } from './ptc-port.js'
import type { BudgetedRender } from './render-within-budget.js'
import { MAX_INDEX_BYTES } from './tool-index-section.js'

interface LastRender {
  readonly tools: readonly PtcToolView[]
  readonly maxTotalBytes: number
  readonly result: BudgetedRender
}

const lastRenders = new WeakMap<object, LastRender>()

/**
 * The SDK of `tools`, reused from the owner's last render when every view is the same object and the budget the
 * same: under tool search the declared tools rarely change while the index does, and the bridge hands unchanged
 * tools over as the same views.
 */
export function renderOnce(
  owner: object,
  tools: readonly PtcToolView[],
  budget: RenderBudget,
  render: (tools: readonly PtcToolView[], budget: RenderBudget) => BudgetedRender,
): BudgetedRender {
  const last = lastRenders.get(owner)
  if (
    last !== undefined &&
    last.maxTotalBytes === budget.maxTotalBytes &&
    last.tools.length === tools.length &&
    last.tools.every((tool, index) => tool === tools[index])
  ) {
    return last.result
  }
  const result = render(tools, budget)
  lastRenders.set(owner, { tools: [...tools], maxTotalBytes: budget.maxTotalBytes, result })
  return result
}

/** The budget left for the SDK when an index section, at most `MAX_INDEX_BYTES`, follows it. */
export function leaveRoomForIndex(budget: RenderBudget, indexed: boolean): RenderBudget {
  return indexed ? { ...budget, maxTotalBytes: Math.max(0, budget.maxTotalBytes - MAX_INDEX_BYTES - 1) } : budget
}
