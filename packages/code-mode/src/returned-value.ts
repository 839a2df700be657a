import { byteLength } from 'qilin-tools/internal/definition/byte-length.js'
import type { JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import { type PtcFailure, PtcFailureKind } from './failure-kinds.js'
import { ptcFailure } from './failure-text.js'
import { jsonValueProblem } from './lossless-json.js'
import { MAX_PROGRAM_JSON_DEPTH } from './program-messages.js'
import type { PtcLimits } from './ptc-limits.js'

/**
 * Why the host refuses a program's returned value, or undefined: nesting first (nothing later recurses through
 * thousands of levels), then numbers JSON cannot carry (`1e400` parses to Infinity), then the size as JSON text.
 */
export function returnedValueFailure(value: JsonValue, limits: PtcLimits): PtcFailure | undefined {
  const problem = jsonValueProblem(value, MAX_PROGRAM_JSON_DEPTH)
  if (problem === 'too-deep') return ptcFailure(PtcFailureKind.RESULT_LIMIT, { maxDepth: MAX_PROGRAM_JSON_DEPTH })
  if (problem === 'not-lossless') {
    return ptcFailure(PtcFailureKind.RUNTIME, { problem: 'the returned value is not JSON with finite numbers only' })
  }
  if (byteLength(JSON.stringify(value)) > limits.maxResultBytes) return ptcFailure(PtcFailureKind.RESULT_LIMIT, limits)
  return undefined
}
