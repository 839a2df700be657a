/** One reason a value failed a schema, written for a model that must fix its call. */
export interface ValidationIssue {
  /** JSON pointer of the offending part of the instance (`''` is the whole value). */
  readonly path: string
  /** The schema keyword that failed, e.g. `type`, `required`, `additionalProperties`. */
  readonly keyword: string
  /** What was expected, what was received and where; at most 512 characters. */
  readonly message: string
}

/** The outcome of validating one value: valid, or the issues found. */
export type ValidationResult =
  | { readonly valid: true }
  | { readonly valid: false; readonly issues: readonly ValidationIssue[] }

/** A keyword lenient compilation ignored, and the schema object that holds it. */
export interface UnknownKeyword {
  /** JSON pointer of the schema object holding the ignored keyword. */
  readonly path: string
  readonly keyword: string
}

/** A schema compiled once into a reusable validator. */
export interface CompiledSchema {
  validate(value: unknown): ValidationResult
  /** Keywords ignored in lenient mode (always empty in strict mode, which throws instead). */
  readonly unknownKeywords: readonly UnknownKeyword[]
}

/** How `compileSchema` treats unsupported keywords, formats and deep values. */
export interface CompileOptions {
  /** Ignore unsupported keywords instead of throwing; they are listed in `unknownKeywords`. */
  readonly lenient?: boolean
  /** Assert the known formats (date-time, date, time, email, hostname, ipv4, ipv6, uri, uuid, regex). */
  readonly assertFormats?: boolean
  /** Instance nesting allowed before validation stops with a `depth` issue. Default 64. */
  readonly maxDepth?: number
  /**
   * Generate a JavaScript function per schema on the first `validate` call (default true). With `false` no code is
   * ever generated (for hosts that forbid eval-like constructs): the closure tree alone answers, several times
   * slower, and reports issues across the whole value instead of at the first failing node.
   */
  readonly codegen?: boolean
}
