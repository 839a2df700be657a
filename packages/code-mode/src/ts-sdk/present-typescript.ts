import { compileSchema } from 'qilin-tools/internal/json-schema/compile.js'
import type { JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import type { JsonSchemaObject } from 'qilin-tools/internal/json-schema/node.js'
import { leaveRoomForIndex, renderOnce } from '../last-render.js'
import type { PtcLimits } from '../ptc-limits.js'
import type { PtcPresentation, PtcToolIndex, PtcToolView } from '../ptc-port.js'
import { ptcSections } from '../ptc-sections.js'
import { runCodeSchema } from '../run-code-schema.js'
import { sdkBudget } from '../sdk-budget.js'
import { toolIndexSection } from '../tool-index-section.js'
import { buildTypeScriptSdk } from './render-typescript-sdk.js'
import { bashExampleArguments, typeScriptInstructions } from './typescript-instructions.js'

/** Whether a parameter schema accepts a value; the runtime passes the package validator. */
export type SchemaAccepts = (schema: JsonSchemaObject, value: JsonValue) => boolean

/** The package validator, lenient like MCP intake; a schema it cannot compile accepts nothing. */
export const acceptsWithValidator: SchemaAccepts = (schema, value) => {
  try {
    return compileSchema(schema, { lenient: true }).validate(value).valid
  } catch {
    return false
  }
}

/** Everything the model sees of TypeScript code mode for one visible set: `run_code` and the prompt sections. */
export function presentTypeScript(
  tools: readonly PtcToolView[],
  mode: 'ptc' | 'both',
  options: { readonly limits: PtcLimits; readonly accepts: SchemaAccepts },
  index?: PtcToolIndex,
): PtcPresentation {
  const bash = tools.find((tool) => tool.name === 'bash')
  const showBashExample = bash !== undefined && options.accepts(bash.parameters, { ...bashExampleArguments })
  const runCode = runCodeSchema('typescript', options.limits)
  const indexed = index === undefined ? [] : [toolIndexSection(index, 'typescript')]
  const instructions = (sdk: string) =>
    ptcSections(mode, typeScriptInstructions(sdk, { limits: options.limits, showBashExample }))
  const sections = (sdk: string) => [...instructions(sdk), ...indexed]
  const budget = leaveRoomForIndex(sdkBudget(options.limits, runCode, instructions('')), index !== undefined)
  const sdk = renderOnce(options.limits, tools, budget, buildTypeScriptSdk)
  return { runCode, sections: sections(sdk.text), ...(sdk.omitted.length === 0 ? {} : { omitted: sdk.omitted }) }
}
