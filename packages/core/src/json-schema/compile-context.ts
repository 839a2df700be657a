import type { InstanceKind } from './instance-kind.js'
import { escapePointerToken } from './json-pointer.js'
import type { JsonSchemaObject } from './node.js'
import type { Check } from './validation-state.js'

export interface ResolvedCompileOptions {
  readonly lenient: boolean
  readonly assertFormats: boolean
  readonly maxDepth: number
  readonly codegen: boolean
}

/** What a keyword compiler may ask of the compiler that drives it (passed in, so keyword files import no driver). */
export interface CompileContext {
  readonly options: ResolvedCompileOptions
  /** Compiles a subschema found at `schemaPath` (a JSON pointer into the root schema). */
  compile(schema: unknown, schemaPath: string): Check
  /** A check that runs the schema a local `$ref` points at; linked after the whole root is compiled. */
  reference(ref: string, schemaPath: string): Check
  /** An unsupported keyword: throws in strict mode, is recorded and ignored in lenient mode. */
  unsupported(keyword: string, schemaPath: string, reason: string): void
}

/**
 * How one keyword compiles. `appliesTo` names the instance kinds the check runs on (`any` for all,
 * `node` for keywords the node compiler reads itself or that only annotate).
 */
export interface KeywordDefinition {
  readonly appliesTo: 'any' | 'node' | InstanceKind
  compile?(value: unknown, schema: JsonSchemaObject, context: CompileContext, schemaPath: string): Check | undefined
}

export function childPath(schemaPath: string, ...segments: (string | number)[]): string {
  let path = schemaPath
  for (const segment of segments) path += `/${escapePointerToken(segment)}`
  return path
}
