import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  type Prompt,
  PromptListChangedNotificationSchema,
  type Resource,
  ResourceListChangedNotificationSchema,
  type ResourceTemplate,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import type { LinearPattern } from 'qilin-tools/internal/json-schema/linear-regex.js'
import { boundedCompletion, DEFAULT_MAX_CONTENT_BYTES, noCompletion, withinBytes } from './bounded-answers.js'
import { listBounded } from './bounded-listing.js'
import { isMcpCatalogError, McpCatalogError, McpCatalogErrorCode } from './catalog-error.js'
import type { McpCatalog, McpCatalogChange, McpCatalogOffers, McpCatalogRequestOptions } from './mcp-catalog-types.js'
import { MAX_URI_LENGTH, MAX_URI_TEMPLATE_LENGTH, templatePattern } from './resource-template-match.js'
import { type McpNamePrefix, mcpToolName } from './tool-name.js'

const MAX_PROMPT_NAME_LENGTH = 256
/** The largest set of prompt arguments passed on, as JSON characters. */
const MAX_PROMPT_ARGUMENTS_CHARS = 256 * 1024

/** What the catalog needs from its connection. */
export interface UpstreamCatalogOptions {
  readonly server: string
  readonly prefix: McpNamePrefix | undefined
  readonly requestTimeoutMs: number
  readonly listTimeoutMs: number
  readonly maxContentBytes: number | undefined
  /** The connected session's client, or `undefined` while the server is down. */
  readonly client: () => Client | undefined
  /** A listing that failed or was cut short, worded for the connection's status. */
  readonly onProblem: (problem: string) => void
}

/** A catalog as the connection drives it: installed on each new session, re-read on its notifications. */
export interface UpstreamCatalog extends McpCatalog {
  /** Installs the `list_changed` and `updated` handlers on a new session's client. */
  attach(client: Client, isCurrent: () => boolean): void
  /** Reads the listings the server declared; failures reach `onProblem`, never the caller. */
  sync(signal?: AbortSignal): Promise<void>
  settled(): Promise<void>
  clear(): void
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null
const isResource = (value: unknown): value is Resource =>
  isObject(value) &&
  typeof value.uri === 'string' &&
  value.uri.length <= MAX_URI_LENGTH &&
  typeof value.name === 'string'
const isTemplate = (value: unknown): value is ResourceTemplate =>
  isObject(value) &&
  typeof value.uriTemplate === 'string' &&
  value.uriTemplate.length <= MAX_URI_TEMPLATE_LENGTH &&
  typeof value.name === 'string'
const isPrompt = (value: unknown): value is Prompt =>
  isObject(value) && typeof value.name === 'string' && value.name.length <= MAX_PROMPT_NAME_LENGTH

/** The resources, templates and prompts of one upstream server, kept in step with its listings. */
export function createUpstreamCatalog(options: UpstreamCatalogOptions): UpstreamCatalog {
  const { server } = options
  const maxContentBytes = options.maxContentBytes ?? DEFAULT_MAX_CONTENT_BYTES
  let resources: readonly Resource[] = []
  let templates: readonly { readonly template: ResourceTemplate; readonly pattern: LinearPattern | undefined }[] = []
  let listedUris = new Set<string>()
  let prompts: readonly Prompt[] = []
  let promptNames = new Map<string, string>()
  const listeners = new Set<(change: McpCatalogChange) => void>()
  const pending = { resources: false, prompts: false }
  let syncing: Promise<void> | undefined

  const offers = (): McpCatalogOffers => {
    const declared = options.client()?.getServerCapabilities()
    return {
      resources: declared?.resources !== undefined,
      subscribe: declared?.resources?.subscribe === true,
      prompts: declared?.prompts !== undefined,
      completions: declared?.completions !== undefined,
    }
  }
  const emit = (change: McpCatalogChange) => {
    for (const listener of [...listeners]) {
      try {
        listener(change)
      } catch {
        // One listener's failure is neither the server's problem nor the other listeners'.
      }
    }
  }
  const connected = (): Client => {
    const client = options.client()
    if (client === undefined) {
      throw new McpCatalogError(McpCatalogErrorCode.UNAVAILABLE, `MCP server "${server}" is not connected`)
    }
    return client
  }
  const request = async <Answer>(what: string, run: (client: Client) => Promise<Answer>): Promise<Answer> => {
    const client = connected()
    try {
      return await run(client)
    } catch (cause) {
      if (isMcpCatalogError(cause)) throw cause
      const message = `MCP server "${server}" failed ${what}: ${thrownMessage(cause)}`
      throw new McpCatalogError(McpCatalogErrorCode.UPSTREAM_FAILED, message, { cause })
    }
  }
  const requestOptions = (signal: AbortSignal | undefined) => ({
    timeout: options.requestTimeoutMs,
    ...(signal === undefined ? {} : { signal }),
  })
  const checkUri = (uri: string) => {
    if (typeof uri !== 'string' || uri.length > MAX_URI_LENGTH) {
      const message = `resource URI longer than ${MAX_URI_LENGTH} characters`
      throw new McpCatalogError(McpCatalogErrorCode.REQUEST_TOO_LARGE, message)
    }
  }

  const readResources = async (client: Client, signal?: AbortSignal) => {
    const listOptions = { timeout: options.listTimeoutMs, ...(signal === undefined ? {} : { signal }) }
    const listed = await listBounded(async (cursor) => {
      const page = await client.listResources(cursor === undefined ? {} : { cursor }, listOptions)
      return { items: page.resources, nextCursor: page.nextCursor }
    }, isResource)
    const listedTemplates = await listBounded(async (cursor) => {
      const page = await client.listResourceTemplates(cursor === undefined ? {} : { cursor }, listOptions)
      return { items: page.resourceTemplates, nextCursor: page.nextCursor }
    }, isTemplate)
    resources = Object.freeze(listed.items)
    listedUris = new Set(resources.map((resource) => resource.uri))
    templates = listedTemplates.items.map((template) => ({ template, pattern: templatePattern(template.uriTemplate) }))
    if (listed.problem !== undefined) options.onProblem(`resources/list: ${listed.problem}`)
    if (listedTemplates.problem !== undefined) options.onProblem(`resources/templates/list: ${listedTemplates.problem}`)
  }
  const readPrompts = async (client: Client, signal?: AbortSignal) => {
    const listOptions = { timeout: options.listTimeoutMs, ...(signal === undefined ? {} : { signal }) }
    const listed = await listBounded(async (cursor) => {
      const page = await client.listPrompts(cursor === undefined ? {} : { cursor }, listOptions)
      return { items: page.prompts, nextCursor: page.nextCursor }
    }, isPrompt)
    const names = new Map<string, string>()
    const exposed: Prompt[] = []
    for (const prompt of listed.items) {
      const name = mcpToolName(server, prompt.name, options.prefix)
      // Two prompts that map to one name: the first keeps it, as a listing's order is the server's own.
      if (names.has(name)) continue
      names.set(name, prompt.name)
      exposed.push({ ...prompt, name })
    }
    prompts = Object.freeze(exposed)
    promptNames = names
    if (listed.problem !== undefined) options.onProblem(`prompts/list: ${listed.problem}`)
  }

  /** Re-reads what is pending, one listing at a time; notifications during a read queue one more. */
  const drain = (signal?: AbortSignal): Promise<void> => {
    if (syncing !== undefined) return syncing
    // Cleared in a `finally` callback, which runs after this assignment even when nothing was pending.
    syncing = (async () => {
      while (pending.resources || pending.prompts) {
        const client = options.client()
        if (client === undefined) return
        const kind = pending.resources ? 'resources' : 'prompts'
        pending[kind] = false
        try {
          await (kind === 'resources' ? readResources(client, signal) : readPrompts(client, signal))
          emit({ kind })
        } catch (cause) {
          options.onProblem(
            `${kind === 'resources' ? 'resources/list' : 'prompts/list'} failed: ${thrownMessage(cause)}`,
          )
        }
      }
    })().finally(() => {
      syncing = undefined
    })
    return syncing
  }

  return {
    server,
    get offers() {
      return offers()
    },
    get resources() {
      return resources
    },
    get resourceTemplates() {
      return templates.map((entry) => entry.template)
    },
    get prompts() {
      return prompts
    },
    routes(uri) {
      if (listedUris.has(uri)) return 'listed'
      if (uri.length > MAX_URI_LENGTH) return undefined
      return templates.some((entry) => entry.pattern?.test(uri) === true) ? 'template' : undefined
    },
    async readResource(uri, requestOptionsGiven?: McpCatalogRequestOptions) {
      checkUri(uri)
      return request(`to read "${uri}"`, async (client) => {
        const answer = await client.readResource({ uri }, requestOptions(requestOptionsGiven?.signal))
        return withinBytes(server, `resources/read "${uri}"`, answer, maxContentBytes)
      })
    },
    async getPrompt(name, args, requestOptionsGiven) {
      const original = promptNames.get(name)
      if (original === undefined) {
        throw new McpCatalogError(
          McpCatalogErrorCode.UNKNOWN_PROMPT,
          `MCP server "${server}" lists no prompt "${name}"`,
        )
      }
      if (args !== undefined && (JSON.stringify(args)?.length ?? 0) > MAX_PROMPT_ARGUMENTS_CHARS) {
        const message = `prompt arguments longer than ${MAX_PROMPT_ARGUMENTS_CHARS} characters of JSON`
        throw new McpCatalogError(McpCatalogErrorCode.REQUEST_TOO_LARGE, message)
      }
      return request(`to get prompt "${original}"`, async (client) => {
        const params = { name: original, ...(args === undefined ? {} : { arguments: { ...args } }) }
        const answer = await client.getPrompt(params, requestOptions(requestOptionsGiven?.signal))
        return withinBytes(server, `prompts/get "${original}"`, answer, maxContentBytes)
      })
    },
    async complete(params, requestOptionsGiven) {
      if (!offers().completions) return noCompletion
      const { ref } = params
      const upstreamRef = ref.type === 'ref/prompt' ? { ...ref, name: promptNames.get(ref.name) ?? ref.name } : ref
      return request('to complete an argument', async (client) => {
        const answer = await client.complete(
          { ...params, ref: upstreamRef },
          requestOptions(requestOptionsGiven?.signal),
        )
        return boundedCompletion(answer)
      })
    },
    async subscribe(uri, requestOptionsGiven) {
      checkUri(uri)
      if (!offers().subscribe) {
        const message = `MCP server "${server}" does not offer resource subscriptions`
        throw new McpCatalogError(McpCatalogErrorCode.NOT_SUPPORTED, message)
      }
      await request(`to subscribe to "${uri}"`, (client) =>
        client.subscribeResource({ uri }, requestOptions(requestOptionsGiven?.signal)),
      )
    },
    async unsubscribe(uri, requestOptionsGiven) {
      checkUri(uri)
      if (!offers().subscribe) return
      await request(`to unsubscribe from "${uri}"`, (client) =>
        client.unsubscribeResource({ uri }, requestOptions(requestOptionsGiven?.signal)),
      )
    },
    onChange(listener) {
      const own = (change: McpCatalogChange) => listener(change)
      listeners.add(own)
      return { dispose: () => void listeners.delete(own) }
    },
    attach(client, isCurrent) {
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
        if (!isCurrent()) return
        pending.resources = true
        void drain()
      })
      client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
        if (!isCurrent()) return
        pending.prompts = true
        void drain()
      })
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        const { uri } = notification.params
        if (isCurrent() && uri.length <= MAX_URI_LENGTH) emit({ kind: 'updated', uri })
      })
    },
    async sync(signal) {
      const declared = offers()
      pending.resources = declared.resources
      pending.prompts = declared.prompts
      await drain(signal)
    },
    settled: async () => {
      while (syncing !== undefined) await syncing.catch(() => {})
    },
    clear() {
      resources = []
      templates = []
      listedUris = new Set()
      prompts = []
      promptNames = new Map()
    },
  }
}
