/**
 * What a projection did to each tool. Plain JSON and deterministic, so hosts can log it,
 * diff it between releases and pass it back to the call parsers (`names`, `nullsMeanAbsent`).
 */

/** One edit made to a schema for a provider. Anything dropped is still enforced by our validator. */
export interface SchemaChange {
  /** JSON pointer into the tool's original `parameters` (`''` is the root). */
  readonly path: string
  readonly keyword: string
  /** `dropped`: the provider does not take it. `rewritten`: sent in an equivalent or wider form. `added`: required by the provider. */
  readonly action: 'dropped' | 'rewritten' | 'added'
  readonly detail?: string
}

/**
 * `exact`: sent as declared (metadata such as `$schema` aside). `changed`: sent with the listed changes or renamed.
 * `degraded`: the preferred form was impossible (strict off, or Gemini's JSON Schema field). `omitted`: left out.
 */
export type ProjectionStatus = 'exact' | 'changed' | 'degraded' | 'omitted'

/** How one tool fared in a provider projection: the name the provider sees, its status and strictness. */
export interface ToolProjection {
  /** Our tool name. */
  readonly name: string
  /** The name the provider sees; differs when the provider's name rule forced a rename. */
  readonly providerName: string
  readonly status: ProjectionStatus
  /** Whether the provider's strict mode is on for this tool. */
  readonly strict: boolean
  /** Strict OpenAI sends optional properties as required-and-nullable: a `null` there means absent. */
  readonly nullsMeanAbsent: boolean
  readonly changes: readonly SchemaChange[]
  readonly warnings: readonly string[]
}

/** What a provider projection did to each tool, the names to map calls back, and request-wide warnings. */
export interface ProjectionReport {
  readonly provider: 'openai' | 'anthropic' | 'gemini'
  /** One entry per input schema, in input order. */
  readonly tools: readonly ToolProjection[]
  /** Provider name -> our name, for every tool sent. Call parsers use it to map names back. */
  readonly names: Readonly<Record<string, string>>
  /** Request-wide problems no single tool causes, such as too many tools. */
  readonly warnings: readonly string[]
}

/** A projection's result: the provider's tool array and what was done to get there. */
export interface Projection<Tool> {
  readonly tools: Tool[]
  readonly report: ProjectionReport
}
