import type { JsonObject, JsonValue } from '../../json-schema/json-value.js'
import type { ToolCall } from '../../pipeline/call.js'
import type { ToolSchema } from '../../registry/tool-schema.js'
import type { ProjectionReport } from '../projection-report.js'
import { stripStrictNulls } from '../strip-strict-nulls.js'

/** What the call parsers need to map a provider's calls back: the projection report and the projected schemas. */
export interface ParseCallsOptions {
  /** The projection the tools were sent with: renamed tools are mapped back to our names. */
  readonly report?: ProjectionReport
  /**
   * The schemas that were projected. With the report, a strict tool's `null`s that stand for absent
   * optional properties are removed before our validator sees the arguments.
   */
  readonly schemas?: readonly ToolSchema[]
}

/** One provider call as our `ToolCall`. Arguments that are not JSON are passed on untouched: the pipeline reports them. */
export function decodeCall(
  id: string,
  providerName: string,
  args: string | JsonObject,
  options: ParseCallsOptions,
): ToolCall {
  const names = options.report?.names
  // An own key only: a model naming `__proto__` or `constructor` must not read the object's prototype.
  const name = names !== undefined && Object.hasOwn(names, providerName) ? names[providerName]! : providerName
  const projection = options.report?.tools.find((tool) => tool.providerName === providerName)
  const schema = options.schemas?.find((candidate) => candidate.name === name)
  if (projection?.nullsMeanAbsent !== true || schema === undefined) return { id, name, arguments: args }
  const parsed = typeof args === 'string' ? parseObject(args) : args
  if (parsed === undefined) return { id, name, arguments: args }
  const stripped = stripStrictNulls(parsed, schema.parameters)
  if (JSON.stringify(stripped) === JSON.stringify(parsed)) return { id, name, arguments: args }
  // Re-serialized so the pipeline's own size and depth limits still apply to what the model sent.
  return { id, name, arguments: typeof args === 'string' ? JSON.stringify(stripped) : (stripped as JsonObject) }
}

function parseObject(text: string): JsonObject | undefined {
  try {
    const value: JsonValue = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined
  } catch {
    return undefined
  }
}
