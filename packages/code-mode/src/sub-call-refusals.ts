import { byteLength } from 'qilin-tools/internal/definition/byte-length.js'
import type { JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import { argumentsTooLarge } from './arguments-too-large.js'
import { jsonValueProblem } from './lossless-json.js'
import { MAX_PROGRAM_JSON_DEPTH } from './program-messages.js'
import type { PtcLimits } from './ptc-limits.js'

/**
 * How the host words a sub-call it refuses before the pipeline sees it, the same in both runtimes. The program
 * receives these as a `ToolCallError` it may catch; uncaught, they end the run as its own error.
 */
export const subCallRefusalText = {
  unknownTool: (name: string) => `no tool named ${JSON.stringify(name)} is available to this program`,
  notAnObject: () => 'tool arguments must be a JSON object',
  notLossless: () => 'tool arguments must be JSON with finite numbers only',
  tooDeep: (maxDepth: number) => `tool arguments nest deeper than ${maxDepth} levels`,
  tooLarge: argumentsTooLarge,
} as const

/**
 * Why the host refuses a call's arguments before the pipeline sees them, or undefined: nesting first (so no later
 * check recurses through 5,000 levels), then the shape, then numbers JSON cannot carry, then the size in UTF-8
 * bytes of the JSON text, as both programs' sides count it.
 */
export function argumentRefusal(args: JsonValue, limits: PtcLimits): string | undefined {
  const problem = jsonValueProblem(args, MAX_PROGRAM_JSON_DEPTH)
  if (problem === 'too-deep') return subCallRefusalText.tooDeep(MAX_PROGRAM_JSON_DEPTH)
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return subCallRefusalText.notAnObject()
  if (problem === 'not-lossless') return subCallRefusalText.notLossless()
  if (byteLength(JSON.stringify(args)) > limits.maxArgumentBytes)
    return subCallRefusalText.tooLarge(limits.maxArgumentBytes)
  return undefined
}
