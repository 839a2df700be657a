import { thrownMessage } from '../errors/thrown-message.js'
import type { ToolSchema } from '../registry/tool-schema.js'
import type { Projection, ProjectionReport, ToolProjection } from './projection-report.js'
import { defaultRenderBudget, jsonBytesUpTo, type RenderBudget } from './render-budget.js'
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
  /** Bytes and time one tool may cost, and bytes the whole tool array may take. Default `defaultRenderBudget`. */
  readonly budget?: Partial<RenderBudget>
}

export interface ChosenTool<Tool> {
  readonly schema: ToolSchema
  readonly candidate: Candidate<Tool> | undefined
  readonly projection: ToolProjection
  /** About how many bytes the tool takes as sent (JSON); 0 when it is left out. */
  readonly bytes: number
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
  const budget = { ...defaultRenderBudget, ...spec.budget }
  const chosen = withinRequestBudget(
    schemas.map((schema, index) => chooseSafely(schema, providerNames[index] ?? schema.name, spec, budget)),
    budget,
  )
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

/** A projector bug, or a schema over budget, must cost one tool, not the request. */
function chooseSafely<Tool>(
  schema: ToolSchema,
  providerName: string,
  spec: ProjectToolsSpec<Tool>,
  budget: RenderBudget,
): ChosenTool<Tool> {
  const leftOut = (reason: string): ChosenTool<Tool> => ({
    schema,
    candidate: undefined,
    projection: omitted(schema, providerName, [`left out: ${reason}`]),
    bytes: 0,
  })
  try {
    // Projection is linear in its input once `$ref` inlining is capped, so bounding the input bounds the work.
    const inputBytes = jsonBytesUpTo(schema, budget.maxToolBytes)
    if (inputBytes > budget.maxToolBytes) return leftOut(`its schema takes more than ${budget.maxToolBytes} bytes`)
    const started = performance.now()
    const chosen = choose(schema, providerName, spec)
    const elapsed = performance.now() - started
    if (elapsed > budget.maxToolMs)
      return leftOut(`projecting it took ${Math.round(elapsed)} ms, over ${budget.maxToolMs}`)
    if (chosen.candidate === undefined) return chosen
    const bytes = jsonBytesUpTo(chosen.candidate.tool, budget.maxToolBytes)
    if (bytes > budget.maxToolBytes) return leftOut(`its projection takes more than ${budget.maxToolBytes} bytes`)
    return { ...chosen, bytes }
  } catch (error) {
    return leftOut(`projection failed: ${thrownMessage(error)}`)
  }
}

/** Over the request budget, the largest tools are left out (ties by name) until the rest fits; nothing else changes. */
function withinRequestBudget<Tool>(chosen: readonly ChosenTool<Tool>[], budget: RenderBudget): ChosenTool<Tool>[] {
  let total = chosen.reduce((sum, entry) => sum + entry.bytes, 0)
  if (total <= budget.maxTotalBytes) return [...chosen]
  const dropped = new Set<ChosenTool<Tool>>()
  const bySize = chosen
    .filter((entry) => entry.candidate !== undefined)
    .sort((left, right) => right.bytes - left.bytes || (left.schema.name < right.schema.name ? -1 : 1))
  for (const entry of bySize) {
    if (total <= budget.maxTotalBytes) break
    dropped.add(entry)
    total -= entry.bytes
  }
  return chosen.map((entry) => {
    if (!dropped.has(entry)) return entry
    const reason = `left out: the tools together would pass ${budget.maxTotalBytes} bytes; this one is among the largest`
    return {
      schema: entry.schema,
      candidate: undefined,
      projection: omitted(entry.schema, entry.projection.providerName, [...entry.projection.warnings, reason]),
      bytes: 0,
    }
  })
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
      return {
        schema,
        candidate,
        projection: toolProjection(schema, providerName, candidate, status, warnings),
        bytes: 0,
      }
    }
    warnings.push(
      ...candidate.context.unfaithful.map((reason) => `${reason} (${candidate.strict ? 'strict' : 'loose'})`),
    )
    rank++
  }
  if (last?.sendableUnfaithful === true) {
    warnings.push(last.degradedNote)
    return {
      schema,
      candidate: last,
      projection: toolProjection(schema, providerName, last, 'degraded', warnings),
      bytes: 0,
    }
  }
  warnings.push('left out: no faithful form for this provider; our validator would reject what the model sends')
  return { schema, candidate: undefined, projection: omitted(schema, providerName, warnings), bytes: 0 }
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
