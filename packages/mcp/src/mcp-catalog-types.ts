import type {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js'

/** Which of resources, subscriptions, prompts and completion an upstream server declared. */
export interface McpCatalogOffers {
  readonly resources: boolean
  readonly subscribe: boolean
  readonly prompts: boolean
  readonly completions: boolean
}

/** What changed in a catalog: a listing was re-read, or a subscribed resource was updated. */
export type McpCatalogChange =
  | { readonly kind: 'resources' }
  | { readonly kind: 'prompts' }
  | { readonly kind: 'updated'; readonly uri: string }

/** Options for one request to the upstream server. */
export interface McpCatalogRequestOptions {
  /** Gives the request up. @default none */
  readonly signal?: AbortSignal
}

/**
 * The resources, resource templates and prompts one MCP server lists, and the requests that reach them. Resource
 * URIs are the server's own; prompt names carry the connection's prefix, like its tools.
 */
export interface McpCatalog {
  readonly server: string
  readonly offers: McpCatalogOffers
  /** Every page of `resources/list`, within the listing limits. */
  readonly resources: readonly Resource[]
  readonly resourceTemplates: readonly ResourceTemplate[]
  /** Every page of `prompts/list`, each under its prefixed name. */
  readonly prompts: readonly Prompt[]
  /** Whether this server lists `uri`, or lists a template that expands to it. */
  routes(uri: string): 'listed' | 'template' | undefined
  /** `resources/read`; an answer past `maxContentBytes` fails with `ANSWER_TOO_LARGE`. */
  readResource(uri: string, options?: McpCatalogRequestOptions): Promise<ReadResourceResult>
  /** `prompts/get` by the prefixed name; an answer past `maxContentBytes` fails with `ANSWER_TOO_LARGE`. */
  getPrompt(
    name: string,
    args?: Readonly<Record<string, string>>,
    options?: McpCatalogRequestOptions,
  ): Promise<GetPromptResult>
  /** `completion/complete` for a prompt (by its prefixed name) or a resource template; empty when not offered. */
  complete(params: CompleteRequest['params'], options?: McpCatalogRequestOptions): Promise<CompleteResult>
  subscribe(uri: string, options?: McpCatalogRequestOptions): Promise<void>
  unsubscribe(uri: string, options?: McpCatalogRequestOptions): Promise<void>
  /** Called after a listing changed and on `notifications/resources/updated`. */
  onChange(listener: (change: McpCatalogChange) => void): { dispose(): void }
}
