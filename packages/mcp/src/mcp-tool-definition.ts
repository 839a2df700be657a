import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { ContentPart } from 'qilin-tools/internal/definition/content.js'
import { defineTool } from 'qilin-tools/internal/definition/define-tool.js'
import type { AnyToolDefinition, ToolAnnotations } from 'qilin-tools/internal/definition/tool-definition.js'
import type { JsonObject, JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'
import type { JsonSchemaNode, JsonSchemaObject } from 'qilin-tools/internal/json-schema/node.js'
import { jsonSchema } from 'qilin-tools/internal/schema/json-schema-spec.js'
import { mapCallResult } from './map-result.js'

/** One listed MCP tool bound to the connection that calls it. */
export interface McpToolBinding {
  readonly serverName: string
  /** The registered (namespaced) name. */
  readonly name: string
  readonly tool: Tool
  call(args: JsonObject, context: McpCallContext): Promise<CallToolResult>
}

/** What a forwarded call knows of the pipeline call it serves. */
export interface McpCallContext {
  readonly signal: AbortSignal
  /** The pipeline's call id: it ties the server's requests during the call to the client that made it. */
  readonly callId: string
}

const textOutput: JsonSchemaNode = { type: 'string' }

/**
 * The server's schema whole, `$schema` included (a proxy that dropped the dialect would change what its clients
 * read, SEP-1613), so the model sees it as the server wrote it; keywords outside our subset are left to the server
 * to enforce (lenient intake), the rest is checked before the server is called.
 */
function intake(schema: Record<string, unknown>): JsonSchemaObject {
  return schema as JsonSchemaObject
}

const annotationKinds = {
  title: 'string',
  readOnlyHint: 'boolean',
  destructiveHint: 'boolean',
  idempotentHint: 'boolean',
  openWorldHint: 'boolean',
} satisfies Record<keyof ToolAnnotations, 'string' | 'boolean'>

/** The hints we know; anything else a server adds is dropped rather than rejected. */
function annotationsOf(tool: Tool): ToolAnnotations | undefined {
  const hints: Record<string, unknown> = tool.annotations ?? {}
  const entries = Object.entries(annotationKinds).filter(([key, kind]) => typeof hints[key] === kind)
  return entries.length === 0
    ? undefined
    : (Object.fromEntries(entries.map(([key]) => [key, hints[key]])) as ToolAnnotations)
}

function renderFallback(value: JsonValue): ContentPart[] {
  return [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }]
}

/**
 * A tool definition that forwards to an MCP server. The server's input schema stands as the parameters and
 * its output schema as the output; a read-only hint lets calls overlap, anything else runs alone.
 */
export function mcpToolDefinition(binding: McpToolBinding): AnyToolDefinition {
  const { tool } = binding
  const hasOutputSchema = tool.outputSchema !== undefined
  // The server's own parts (images included) are what the model reads; they are keyed by the frozen
  // arguments object, which the pipeline hands to both `execute` and `render`.
  const partsByArgs = new WeakMap<object, readonly ContentPart[]>()
  const annotations = annotationsOf(tool)
  const title = tool.title ?? tool.annotations?.title
  const description = tool.description?.trim() ? tool.description : (title ?? tool.name)
  return defineTool({
    name: binding.name,
    ...(title === undefined ? {} : { title }),
    description,
    parameters: jsonSchema(intake(tool.inputSchema)),
    output: {
      schema: jsonSchema(tool.outputSchema === undefined ? textOutput : intake(tool.outputSchema)),
      render: (args: JsonObject, value: JsonValue) => partsByArgs.get(args) ?? renderFallback(value),
    },
    ...(annotations === undefined ? {} : { annotations }),
    executionMode: tool.annotations?.readOnlyHint === true ? 'parallel' : 'exclusive',
    async execute(args: JsonObject, exec: McpCallContext) {
      const result = await binding.call(args, { signal: exec.signal, callId: exec.callId })
      const mapped = mapCallResult(binding.serverName, result, hasOutputSchema)
      if (typeof args === 'object' && args !== null) partsByArgs.set(args, mapped.content)
      return mapped.value
    },
  }) as AnyToolDefinition
}
