import type { ToolSchema } from '../registry/tool-schema.js'
import type { Projection, ProjectionReport, ToolProjection } from './projection-report.js'
import type { ProjectionContext } from './schema/projection-context.js'
import { setOwn } from './schema/set-own.js'
import { mapToolNames, type NameRule } from './tool-names.js'

/** One way to send a tool; a projection tries them best first. */
export interface Candidate<Tool> {
  readonly tool: Tool
  readonly context: ProjectionContext
  readonly strict: boolean
  readonly nullsMeanAbsent: boolean
  /** What the report says when this candidate is used because the better ones were not faithful. */
  readonly degradedNote: string
  /** False: an unfaithful result would be rejected by the provider, so the tool is left out instead. */
  readonly sendableUnfaithful: boolean
}

export interface ProjectToolsSpec<Tool> {
  readonly provider: ProjectionReport['provider']
  readonly nameRule: NameRule
  /**
   * Candidates for one tool, best first; built lazily so a faithful first choice costs one pass.
   * Called once per tool in input order, so request-wide budgets can be kept in a closure.
   */
  candidates(schema: ToolSchema, providerName: string): Iterable<Candidate<Tool>>
  /** Most tools one request may carry, when the provider documents a limit. */
  readonly maxTools?: number
}

export interface ChosenTool<Tool> {
  readonly schema: ToolSchema
  readonly candidate: Candidate<Tool> | undefined
  readonly projection: ToolProjection
}

/**
 * The part every projection shares: names mapped, one tool at a time degraded alone, a report per tool.
 * It never throws for a schema; the worst outcome for a tool is being left out with a warning.
 */
export function projectTools<Tool>(schemas: readonly ToolSchema[], spec: ProjectToolsSpec<Tool>): Projection<Tool> {
  const nameMap = mapToolNames(
    schemas.map((schema) => schema.name),
    spec.nameRule,
  )
  const providerNames = [...nameMap.keys()]
  const chosen = schemas.map((schema, index) => chooseSafely(schema, providerNames[index] ?? schema.name, spec))
  const names: Record<string, string> = {}
  const tools: Tool[] = []
  for (const entry of chosen) {
    if (entry.candidate === undefined) continue
    setOwn(names, entry.projection.providerName, entry.schema.name)
    tools.push(entry.candidate.tool)
  }
  const warnings =
    spec.maxTools !== undefined && tools.length > spec.maxTools
      ? [`${tools.length} tools; the provider accepts at most ${spec.maxTools} per request`]
      : []
  const report = { provider: spec.provider, tools: chosen.map((entry) => entry.projection), names, warnings }
  return { tools, report }
}

/** A projector bug must cost one tool, not the request. */
function chooseSafely<Tool>(schema: ToolSchema, providerName: string, spec: ProjectToolsSpec<Tool>): ChosenTool<Tool> {
  try {
    return choose(schema, providerName, spec)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return {
      schema,
      candidate: undefined,
      projection: omitted(schema, providerName, [`left out: projection failed: ${reason}`]),
    }
  }
}

function choose<Tool>(schema: ToolSchema, providerName: string, spec: ProjectToolsSpec<Tool>): ChosenTool<Tool> {
  const warnings: string[] = []
  if (providerName !== schema.name) warnings.push(`renamed to ${providerName} to fit the provider's name rule`)
  let rank = 0
  let last: Candidate<Tool> | undefined
  for (const candidate of spec.candidates(schema, providerName)) {
    last = candidate
    if (candidate.context.faithful) {
      if (rank > 0) warnings.push(candidate.degradedNote)
      const changed = candidate.context.changes.length > 0 || providerName !== schema.name
      const status = rank > 0 ? 'degraded' : changed ? 'changed' : 'exact'
      return { schema, candidate, projection: toolProjection(schema, providerName, candidate, status, warnings) }
    }
    warnings.push(
      ...candidate.context.unfaithful.map((reason) => `${reason} (${candidate.strict ? 'strict' : 'loose'})`),
    )
    rank++
  }
  if (last?.sendableUnfaithful === true) {
    warnings.push(last.degradedNote)
    return { schema, candidate: last, projection: toolProjection(schema, providerName, last, 'degraded', warnings) }
  }
  warnings.push('left out: no faithful form for this provider; our validator would reject what the model sends')
  return { schema, candidate: undefined, projection: omitted(schema, providerName, warnings) }
}

function omitted(schema: ToolSchema, providerName: string, warnings: readonly string[]): ToolProjection {
  return {
    name: schema.name,
    providerName,
    status: 'omitted',
    strict: false,
    nullsMeanAbsent: false,
    changes: [],
    warnings,
  }
}

function toolProjection<Tool>(
  schema: ToolSchema,
  providerName: string,
  candidate: Candidate<Tool>,
  status: ToolProjection['status'],
  warnings: readonly string[],
): ToolProjection {
  return {
    name: schema.name,
    providerName,
    status,
    strict: candidate.strict,
    nullsMeanAbsent: candidate.nullsMeanAbsent,
    changes: candidate.context.changes,
    warnings,
  }
}
