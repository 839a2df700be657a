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
 * The most UTF-8 bytes `JSON.stringify` writes for one character of the JSON text a value was parsed from: six for
 * a lone surrogate written raw (it comes back as `\uXXXX`), 21 for the four of `1e20`; every other character
 * comes back as itself or shorter.
 */
export const MAX_BYTES_PER_PARSED_CHARACTER = 6

/**
 * Why the host refuses a call's arguments before the pipeline sees them, or undefined: nesting first (so no later
 * check recurses through 5,000 levels), then the shape, then numbers JSON cannot carry, then the size in UTF-8
 * bytes of the JSON text, as both programs' sides count it. `textLength`, when the wire knows it, is the length of
 * the message the arguments were parsed from: arguments from a message that short cannot pass the limit, so they
 * are not serialised a second time to be measured.
 */
export function argumentRefusal(
  args: JsonValue,
  limits: PtcLimits,
  textLength = Number.POSITIVE_INFINITY,
): string | undefined {
  const problem = jsonValueProblem(args, MAX_PROGRAM_JSON_DEPTH)
  if (problem === 'too-deep') return subCallRefusalText.tooDeep(MAX_PROGRAM_JSON_DEPTH)
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return subCallRefusalText.notAnObject()
  if (problem === 'not-lossless') return subCallRefusalText.notLossless()
  const mayBeOver = textLength * MAX_BYTES_PER_PARSED_CHARACTER > limits.maxArgumentBytes
  if (mayBeOver && byteLength(JSON.stringify(args)) > limits.maxArgumentBytes)
    return subCallRefusalText.tooLarge(limits.maxArgumentBytes)
  return undefined
}
