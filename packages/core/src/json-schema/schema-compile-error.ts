import { brandError } from '../errors/brand.js'
/** Thrown by `compileSchema` when a schema cannot be compiled; names the keyword and where it sits in the schema. */
export class SchemaCompileError extends Error {
  override readonly name = 'SchemaCompileError'
  /** The offending keyword, e.g. `patternProperties` or `$ref`. */
  readonly keyword: string
  /** JSON pointer of the schema object that holds the keyword (`''` is the root). */
  readonly schemaPath: string

  constructor(keyword: string, schemaPath: string, reason: string) {
    super(`${keyword} at ${schemaPath === '' ? '(schema root)' : schemaPath}: ${reason}`)
    this.keyword = keyword
    this.schemaPath = schemaPath
  }
}

/** Recognises a SchemaCompileError from any copy of this package or realm. */
export const isSchemaCompileError = brandError(SchemaCompileError, 'SchemaCompileError')
