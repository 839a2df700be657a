import type { AnyToolDefinition } from '../definition/tool-definition.js'
import { InvalidArgumentError } from '../errors/invalid-argument-error.js'

/** A mask over inherited global tools: an allow list, a deny list, or a predicate that keeps a tool when true. */
export type ToolFilter =
  | { readonly allow: readonly string[] }
  | { readonly deny: readonly string[] }
  | ((definition: AnyToolDefinition) => boolean)

export type ToolPredicate = (definition: AnyToolDefinition) => boolean

export function toToolPredicate(filter: ToolFilter): ToolPredicate {
  if (typeof filter === 'function') return filter
  if (typeof filter !== 'object' || filter === null)
    throw new InvalidArgumentError('restrict(filter): expected { allow }, { deny } or a predicate')
  if ('allow' in filter && Array.isArray(filter.allow)) {
    const allowed = new Set(filter.allow)
    return (definition) => allowed.has(definition.name)
  }
  if ('deny' in filter && Array.isArray(filter.deny)) {
    const denied = new Set(filter.deny)
    return (definition) => !denied.has(definition.name)
  }
  throw new InvalidArgumentError('restrict(filter): expected { allow: string[] }, { deny: string[] } or a predicate')
}
