/**
 * How many nested container levels stay exact, in inferred argument types and in generated SDK types.
 * Past it, both widen to `JsonValue`. The type-level counter in `infer.ts` is built from this number.
 */
export const SCHEMA_DEPTH_LIMIT = 16
/** The depth limit as a literal type, for type-level counters. */
export type SchemaDepthLimit = typeof SCHEMA_DEPTH_LIMIT
