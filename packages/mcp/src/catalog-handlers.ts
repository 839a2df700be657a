import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { isMcpCatalogError, type McpCatalogErrorCode } from './catalog-error.js'
import type { CatalogRouter } from './catalog-router.js'
import type { McpCatalogChange } from './mcp-catalog-types.js'

/** Entries per served page of `resources/list`, `resources/templates/list` and `prompts/list`. */
const PAGE_SIZE = 500
/** Subscriptions one client session may hold. */
const MAX_SUBSCRIPTIONS = 1000
/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002

const protocolCodes = {
  UNKNOWN_RESOURCE: RESOURCE_NOT_FOUND,
  UNKNOWN_PROMPT: ErrorCode.InvalidParams,
  REQUEST_TOO_LARGE: ErrorCode.InvalidParams,
  ANSWER_TOO_LARGE: ErrorCode.InternalError,
  NOT_SUPPORTED: ErrorCode.MethodNotFound,
  UNAVAILABLE: ErrorCode.InternalError,
  UPSTREAM_FAILED: ErrorCode.InternalError,
} satisfies Record<McpCatalogErrorCode, number>

/** A catalog failure as the JSON-RPC error the client reads, its stable code in `data.code`. */
function asProtocolError(error: unknown): unknown {
  if (!isMcpCatalogError(error)) return error
  return new McpError(protocolCodes[error.code], error.message, { code: error.code })
}

async function answering<Answer>(run: () => Promise<Answer>): Promise<Answer> {
  try {
    return await run()
  } catch (error) {
    throw asProtocolError(error)
  }
}

/** One page of `items` from an offset cursor; the cursor is ours, so anything else is the client's mistake. */
function page<Item>(items: readonly Item[], cursor: string | undefined): { items: Item[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : Number(cursor)
  if (!Number.isSafeInteger(start) || start < 0 || (cursor !== undefined && !/^\d{1,15}$/.test(cursor))) {
    throw new McpError(ErrorCode.InvalidParams, `invalid cursor "${String(cursor).slice(0, 64)}"`)
  }
  const end = start + PAGE_SIZE
  return { items: items.slice(start, end), ...(end < items.length ? { nextCursor: String(end) } : {}) }
}

/** What `serveMcp` tells one session about its upstreams' changes, and how the session lets go of its subscriptions. */
export interface ServedCatalog {
  notify(change: McpCatalogChange): void
  close(): void
}

/**
 * Serves `router`'s resources, templates, prompts and completion on one session's `server`, declaring only what
 * some upstream offers. Must run before the server connects.
 */
export function serveCatalog(server: Server, router: CatalogRouter): ServedCatalog {
  const offers = router.offers()
  const subscribed = new Set<string>()
  server.registerCapabilities({
    ...(offers.resources ? { resources: { listChanged: true, ...(offers.subscribe ? { subscribe: true } : {}) } } : {}),
    ...(offers.prompts ? { prompts: { listChanged: true } } : {}),
    ...(offers.resources || offers.prompts ? { completions: {} } : {}),
  })
  if (offers.resources) {
    server.setRequestHandler(ListResourcesRequestSchema, (request) => {
      const { items, nextCursor } = page(router.resources(), request.params?.cursor)
      return { resources: items, ...(nextCursor === undefined ? {} : { nextCursor }) }
    })
    server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
      const { items, nextCursor } = page(router.resourceTemplates(), request.params?.cursor)
      return { resourceTemplates: items, ...(nextCursor === undefined ? {} : { nextCursor }) }
    })
    server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
      answering(() => router.read(request.params.uri, extra.signal)),
    )
  }
  if (offers.subscribe) {
    server.setRequestHandler(SubscribeRequestSchema, (request, extra) =>
      answering(async () => {
        const { uri } = request.params
        if (subscribed.has(uri)) return {}
        if (subscribed.size >= MAX_SUBSCRIPTIONS) {
          throw new McpError(ErrorCode.InvalidParams, `at most ${MAX_SUBSCRIPTIONS} subscriptions per session`)
        }
        await router.subscribe(uri, extra.signal)
        subscribed.add(uri)
        return {}
      }),
    )
    server.setRequestHandler(UnsubscribeRequestSchema, (request) =>
      answering(async () => {
        const { uri } = request.params
        if (subscribed.delete(uri)) await router.unsubscribe(uri)
        return {}
      }),
    )
  }
  if (offers.prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, (request) => {
      const { items, nextCursor } = page(router.prompts(), request.params?.cursor)
      return { prompts: items, ...(nextCursor === undefined ? {} : { nextCursor }) }
    })
    server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
      answering(() => router.getPrompt(request.params.name, request.params.arguments, extra.signal)),
    )
  }
  if (offers.resources || offers.prompts) {
    server.setRequestHandler(CompleteRequestSchema, (request, extra) =>
      answering(() => router.complete(request.params, extra.signal)),
    )
  }
  return {
    notify(change) {
      const sent =
        change.kind === 'resources' && offers.resources
          ? server.sendResourceListChanged()
          : change.kind === 'prompts' && offers.prompts
            ? server.sendPromptListChanged()
            : change.kind === 'updated' && subscribed.has(change.uri)
              ? server.sendResourceUpdated({ uri: change.uri })
              : undefined
      // A session that has gone away, or has not initialized yet, has nothing to be told.
      Promise.resolve(sent).catch(() => {})
    },
    close() {
      for (const uri of subscribed) void router.unsubscribe(uri).catch(() => {})
      subscribed.clear()
    },
  }
}
