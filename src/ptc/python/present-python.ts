import type { PtcPresentation, PtcToolView } from '../../pipeline/ptc-port.js'
import type { ToolSchema } from '../../registry/tool-schema.js'
import type { PtcLimits } from '../ptc-limits.js'
import { ptcSections } from '../ptc-sections.js'
import { runCodeSchema } from '../run-code-schema.js'
import { pythonInstructions } from './python-instructions.js'
import { renderPythonSdk } from './render-python-sdk.js'

const codeDescription =
  'Body of an async Python function. Call tools with keyword arguments, as `await tools.name(key=value)`; print or return what you need.'

/** Everything the model sees of Python code mode for one visible set: `run_code` and the prompt sections. */
export function presentPython(tools: readonly PtcToolView[], mode: 'ptc' | 'both', limits: PtcLimits): PtcPresentation {
  return {
    runCode: pythonRunCode(limits),
    sections: ptcSections(mode, pythonInstructions(renderPythonSdk(tools), limits)),
  }
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
