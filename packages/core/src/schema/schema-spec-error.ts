import { brandError } from '../errors/brand.js'
/** A spec that cannot become a JSON Schema node. `path` locates the offending part, e.g. `parameters.tags.items`. */
export class SchemaSpecError extends Error {
  readonly path: string
  readonly reason: string

  constructor(path: string, reason: string) {
    super(`${path === '' ? '(root)' : path}: ${reason}`)
    this.name = 'SchemaSpecError'
    this.path = path
    this.reason = reason
  }
}

/** Recognises a SchemaSpecError from any copy of this package or realm. */
export const isSchemaSpecError = brandError(SchemaSpecError, 'SchemaSpecError')
