import { byteLength } from 'qilin-tools/internal/definition/byte-length.js'
import { defaultRenderBudget, type RenderBudget } from 'qilin-tools/internal/providers/render-budget.js'
import type { PromptSection, ToolSchema } from 'qilin-tools/internal/registry/tool-schema.js'
import type { PtcLimits } from './ptc-limits.js'

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
