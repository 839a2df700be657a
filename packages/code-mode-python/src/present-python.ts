import { leaveRoomForIndex, renderOnce } from '@qilin-tools/code-mode/internal/last-render.js'
import type { PtcLimits } from '@qilin-tools/code-mode/internal/ptc-limits.js'
import type { PtcPresentation, PtcToolIndex, PtcToolView } from '@qilin-tools/code-mode/internal/ptc-port.js'
import { ptcSections } from '@qilin-tools/code-mode/internal/ptc-sections.js'
import { runCodeSchema } from '@qilin-tools/code-mode/internal/run-code-schema.js'
import { sdkBudget } from '@qilin-tools/code-mode/internal/sdk-budget.js'
import { toolIndexSection } from '@qilin-tools/code-mode/internal/tool-index-section.js'
import type { ToolSchema } from 'qilin-tools/internal/registry/tool-schema.js'
import { pythonInstructions } from './python-instructions.js'
import { buildPythonSdk } from './render-python-sdk.js'

const codeDescription =
  'Body of an async Python function. Call tools with keyword arguments, as `await tools.name(key=value)`; print or return what you need.'

/** Everything the model sees of Python code mode for one visible set: `run_code` and the prompt sections. */
export function presentPython(
  tools: readonly PtcToolView[],
  mode: 'ptc' | 'both',
  limits: PtcLimits,
  index?: PtcToolIndex,
): PtcPresentation {
  const runCode = pythonRunCode(limits)
  const indexed = index === undefined ? [] : [toolIndexSection(index, 'python')]
  const instructions = (sdk: string) => ptcSections(mode, pythonInstructions(sdk, limits))
  const sections = (sdk: string) => [...instructions(sdk), ...indexed]
  const budget = leaveRoomForIndex(sdkBudget(limits, runCode, instructions('')), index !== undefined)
  const sdk = renderOnce(limits, tools, budget, buildPythonSdk)
  return { runCode, sections: sections(sdk.text), ...(sdk.omitted.length === 0 ? {} : { omitted: sdk.omitted }) }
}

/** The shared `run_code` schema, with a `code` description that shows keyword arguments. */
function pythonRunCode(limits: PtcLimits): ToolSchema {
  const schema = runCodeSchema('python', limits)
  const properties = schema.parameters.properties ?? {}
  const code = properties.code
  return {
    ...schema,
    parameters: {
      ...schema.parameters,
      properties: { ...properties, code: { ...(typeof code === 'object' ? code : {}), description: codeDescription } },
    },
  }
}
