import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js'
import type { ContentPart, EmbeddedResource } from 'qilin-tools/internal/definition/content.js'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import type { AnyToolDefinition } from 'qilin-tools/internal/definition/tool-definition.js'
import { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import { thrownMessage } from 'qilin-tools/internal/errors/thrown-message.js'
import { ToolError } from 'qilin-tools/internal/errors/tool-error.js'
import type { JsonObject, JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import { jsonSchema } from 'qilin-tools/internal/schema/json-schema-spec.js'
import { isMcpCatalogError } from './catalog-error.js'
import { type CatalogRouter, createCatalogRouter } from './catalog-router.js'
import type { McpCatalog } from './mcp-catalog-types.js'
import type { McpToolHost } from './mcp-connection-types.js'
import { MAX_URI_LENGTH } from './resource-template-match.js'

/** The tool (and code-mode binding) that reads a resource of any connected MCP server that offers resources. */
export const READ_RESOURCE_TOOL_NAME = 'read_resource'

const parameters = jsonSchema({
  type: 'object',
  properties: {
    uri: { type: 'string', minLength: 1, maxLength: MAX_URI_LENGTH, description: 'The resource URI, as listed.' },
  },
  required: ['uri'],
  additionalProperties: false,
})

const output = jsonSchema({
  type: 'object',
  properties: {
    contents: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          uri: { type: 'string' },
          mimeType: { type: 'string' },
          text: { type: 'string' },
          blob: { type: 'string' },
        },
        required: ['uri'],
      },
    },
  },
  required: ['contents'],
})

/** Each content's URI, type and text or base64 blob; a server's other fields stay behind. */
function contentsOf(answer: ReadResourceResult): EmbeddedResource[] {
  return answer.contents.map((content) => {
    const head = { uri: content.uri, ...(typeof content.mimeType === 'string' ? { mimeType: content.mimeType } : {}) }
    return 'text' in content ? { ...head, text: content.text } : { ...head, blob: content.blob }
  })
}

/** `read_resource` over `router`: an ordinary definition, so the call runs through the whole pipeline. */
export function readResourceDefinition(router: CatalogRouter): AnyToolDefinition {
  return defineTool({
    name: READ_RESOURCE_TOOL_NAME,
    description:
      'Reads a resource of a connected MCP server by its URI. Returns its contents: text, or base64 blob for binary data.',
    parameters,
    output: {
      schema: output,
      render: (_args: JsonObject, value: JsonValue): ContentPart[] =>
        ((value as { contents: EmbeddedResource[] }).contents ?? []).map((resource) => ({
          type: 'resource',
          resource,
        })),
    },
    annotations: { readOnlyHint: true },
    executionMode: 'parallel',
    async execute(args: JsonObject, exec: { signal: AbortSignal }) {
      try {
        const answer = await router.read(String(args.uri), exec.signal)
        return { contents: contentsOf(answer) } as unknown as JsonValue
      } catch (cause) {
        const code = isMcpCatalogError(cause) ? ` (${cause.code})` : ''
        throw new ToolError({ code: ToolErrorCode.TOOL_ERROR, message: `${thrownMessage(cause)}${code}` }, { cause })
      }
    },
  }) as AnyToolDefinition
}

interface HostReaders {
  readonly catalogs: McpCatalog[]
  registration: { dispose(): void } | undefined
}

/** One `read_resource` per host, shared by every connection registered in it that offers resources. */
const readersByHost = new WeakMap<McpToolHost, HostReaders>()

/**
 * Adds `catalog` to the host's `read_resource`, registering the tool with the first such catalog; the disposer
 * takes it out again, unregistering the tool with the last one. Throws when the host refuses the name.
 */
export function attachResourceReader(host: McpToolHost, catalog: McpCatalog): { dispose(): void } {
  let readers = readersByHost.get(host)
  if (readers === undefined) {
    readers = { catalogs: [], registration: undefined }
    readersByHost.set(host, readers)
  }
  const shared = readers
  if (shared.registration === undefined) {
    // The router reads the shared list on every call, so catalogs attached later are routed to as well.
    shared.registration = host.register(readResourceDefinition(createCatalogRouter(shared.catalogs)))
  }
  shared.catalogs.push(catalog)
  let attached = true
  return {
    dispose() {
      if (!attached) return
      attached = false
      shared.catalogs.splice(shared.catalogs.indexOf(catalog), 1)
      if (shared.catalogs.length > 0) return
      shared.registration?.dispose()
      shared.registration = undefined
    },
  }
}
