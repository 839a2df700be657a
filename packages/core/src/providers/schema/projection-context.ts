import { escapePointerToken } from '../../json-schema/json-pointer.js'
import type { SchemaChange } from '../projection-report.js'

/** Collects what a schema pass changed, and why the result would not be faithful. */
export class ProjectionContext {
  readonly changes: SchemaChange[] = []
  /** Reasons the projected schema would let the model send fewer valid values than ours accepts. */
  readonly unfaithful: string[] = []

  change(path: string, keyword: string, action: SchemaChange['action'], detail?: string): void {
    this.changes.push(detail === undefined ? { path, keyword, action } : { path, keyword, action, detail })
  }

  refuse(path: string, reason: string): void {
    this.unfaithful.push(`${path === '' ? '(root)' : path}: ${reason}`)
  }

  get faithful(): boolean {
    return this.unfaithful.length === 0
  }
}

/** Appends one reference token to a JSON pointer. */
export function pointer(base: string, ...tokens: readonly (string | number)[]): string {
  return tokens.reduce<string>((path, token) => `${path}/${escapePointerToken(token)}`, base)
}
