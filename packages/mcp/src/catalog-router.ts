import type {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js'
import { noCompletion } from './bounded-answers.js'
import { McpCatalogError, McpCatalogErrorCode } from './catalog-error.js'
import type { McpCatalog, McpCatalogChange, McpCatalogOffers } from './mcp-catalog-types.js'

/** The catalogs of several upstream servers as one: merged listings, and each request routed to its server. */
export interface CatalogRouter {
  offers(): McpCatalogOffers
  /** Every server's resources; a URI two servers list is the first one's. */
  resources(): Resource[]
  resourceTemplates(): ResourceTemplate[]
  /** Every server's prompts; a name two servers list (both unprefixed) is the first one's. */
  prompts(): Prompt[]
  read(uri: string, signal?: AbortSignal): Promise<ReadResourceResult>
  getPrompt(
    name: string,
    args: Readonly<Record<string, string>> | undefined,
    signal?: AbortSignal,
  ): Promise<GetPromptResult>
  complete(params: CompleteRequest['params'], signal?: AbortSignal): Promise<CompleteResult>
  /** Subscribes upstream on the first subscriber of `uri`. */
  subscribe(uri: string, signal?: AbortSignal): Promise<void>
  /** Unsubscribes upstream when the last subscriber of `uri` leaves. */
  unsubscribe(uri: string): Promise<void>
  onChange(listener: (change: McpCatalogChange) => void): { dispose(): void }
}

function firstBy<Item>(lists: readonly (readonly Item[])[], key: (item: Item) => string): Item[] {
  const seen = new Set<string>()
  const merged: Item[] = []
  for (const list of lists) {
    for (const item of list) {
      if (seen.has(key(item))) continue
      seen.add(key(item))
      merged.push(item)
    }
  }
  return merged
}

const withSignal = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal })

/** Routes over `catalogs`, earlier ones first: resource URIs are global, so the first server to list one reads it. */
export function createCatalogRouter(catalogs: readonly McpCatalog[]): CatalogRouter {
  const subscribers = new Map<string, { readonly catalog: McpCatalog; count: number }>()

  const catalogOfUri = (uri: string): McpCatalog => {
    const found =
      catalogs.find((catalog) => catalog.routes(uri) === 'listed') ??
      catalogs.find((catalog) => catalog.routes(uri) === 'template')
    if (found !== undefined) return found
    // A resource a server reads without listing it (many do): with one server offering resources, it is that one's.
    const offering = catalogs.filter((catalog) => catalog.offers.resources)
    if (offering.length === 1 && offering[0] !== undefined) return offering[0]
    throw new McpCatalogError(
      McpCatalogErrorCode.UNKNOWN_RESOURCE,
      `no connected MCP server lists the resource "${uri}"`,
    )
  }
  const catalogOfPrompt = (name: string): McpCatalog => {
    const found = catalogs.find((catalog) => catalog.prompts.some((prompt) => prompt.name === name))
    if (found !== undefined) return found
    throw new McpCatalogError(McpCatalogErrorCode.UNKNOWN_PROMPT, `no connected MCP server lists the prompt "${name}"`)
  }

  return {
    offers: () => ({
      resources: catalogs.some((catalog) => catalog.offers.resources),
      subscribe: catalogs.some((catalog) => catalog.offers.subscribe),
      prompts: catalogs.some((catalog) => catalog.offers.prompts),
      completions: catalogs.some((catalog) => catalog.offers.completions),
    }),
    resources: () =>
      firstBy(
        catalogs.map((catalog) => catalog.resources),
        (resource) => resource.uri,
      ),
    resourceTemplates: () =>
      firstBy(
        catalogs.map((catalog) => catalog.resourceTemplates),
        (template) => template.uriTemplate,
      ),
    prompts: () =>
      firstBy(
        catalogs.map((catalog) => catalog.prompts),
        (prompt) => prompt.name,
      ),
    read: async (uri, signal) => catalogOfUri(uri).readResource(uri, withSignal(signal)),
    getPrompt: async (name, args, signal) => catalogOfPrompt(name).getPrompt(name, args, withSignal(signal)),
    async complete(params, signal) {
      const { ref } = params
      if (ref.type === 'ref/prompt') return catalogOfPrompt(ref.name).complete(params, withSignal(signal))
      const catalog = catalogs.find((candidate) =>
        candidate.resourceTemplates.some((template) => template.uriTemplate === ref.uri),
      )
      return catalog === undefined ? noCompletion : catalog.complete(params, withSignal(signal))
    },
    async subscribe(uri, signal) {
      const held = subscribers.get(uri)
      if (held !== undefined) {
        held.count++
        return
      }
      const catalog = catalogOfUri(uri)
      await catalog.subscribe(uri, withSignal(signal))
      const raced = subscribers.get(uri)
      if (raced === undefined) subscribers.set(uri, { catalog, count: 1 })
      else raced.count++
    },
    async unsubscribe(uri) {
      const held = subscribers.get(uri)
      if (held === undefined) return
      held.count--
      if (held.count > 0) return
      subscribers.delete(uri)
      await held.catalog.unsubscribe(uri)
    },
    onChange(listener) {
      const watches = catalogs.map((catalog) => catalog.onChange(listener))
      return {
        dispose: () => {
          for (const watch of watches) watch.dispose()
        },
      }
    },
  }
}
