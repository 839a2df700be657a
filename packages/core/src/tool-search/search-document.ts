import type { AnyToolDefinition } from '../definition/tool-definition.js'
import { searchTerms } from './search-terms.js'

/** The fields of one tool the ranker reads, each as its search terms. */
export interface SearchDocument {
  readonly name: string
  /** The part of the name before `__` (an MCP server's prefix); empty when the name has none. */
  readonly prefix: readonly string[]
  /** The rest of the name. */
  readonly tool: readonly string[]
  readonly description: readonly string[]
  /** Top-level parameter names. */
  readonly parameters: readonly string[]
  /** Top-level parameter descriptions. */
  readonly parameterText: readonly string[]
}

export type SearchField = Exclude<keyof SearchDocument, 'name'>

export const searchFields: readonly SearchField[] = ['prefix', 'tool', 'description', 'parameters', 'parameterText']

/** Parameters read per tool; a schema with a million keys costs no more than this. */
const maxParameters = 64

const documents = new WeakMap<AnyToolDefinition, SearchDocument>()

/** The server prefix of a registered name (`github__create_issue` → `github`), or undefined. */
export function serverPrefix(name: string): string | undefined {
  const at = name.indexOf('__')
  return at > 0 ? name.slice(0, at) : undefined
}

/** One document per frozen definition, built once: adding a tool never re-reads the others. */
export function searchDocument(definition: AnyToolDefinition): SearchDocument {
  let document = documents.get(definition)
  if (document === undefined) {
    document = buildDocument(definition)
    documents.set(definition, document)
  }
  return document
}

function buildDocument(definition: AnyToolDefinition): SearchDocument {
  const name = definition.name
  const prefix = serverPrefix(name)
  const names: string[] = []
  const texts: string[] = []
  const properties = definition.parameters?.properties
  if (typeof properties === 'object' && properties !== null) {
    for (const key in properties) {
      if (names.length >= maxParameters) break
      names.push(key)
      const property = (properties as Record<string, unknown>)[key]
      const text = typeof property === 'object' && property !== null ? (property as { description?: unknown }) : {}
      if (typeof text.description === 'string') texts.push(text.description.slice(0, 512))
    }
  }
  return Object.freeze({
    name,
    prefix: Object.freeze(prefix === undefined ? [] : searchTerms(prefix)),
    tool: Object.freeze(searchTerms(prefix === undefined ? name : name.slice(prefix.length + 2))),
    description: Object.freeze(searchTerms(`${definition.title ?? ''} ${definition.description}`)),
    parameters: Object.freeze(searchTerms(names.join(' '))),
    parameterText: Object.freeze(searchTerms(texts.join(' '))),
  })
}
