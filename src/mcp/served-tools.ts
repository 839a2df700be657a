import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { ContentPart } from '../definition/content.js'
import type { AnyToolDefinition } from '../definition/tool-definition.js'
import type { JsonSchemaNode, JsonSchemaObject } from '../json-schema/node.js'
import type { ToolResult } from '../pipeline/call.js'
import { RUN_CODE_TOOL_NAME } from '../ptc/ptc-port.js'
import type { ToolPrompt } from '../registry/tool-schema.js'

/** MCP requires an object-rooted output schema; other roots are announced without one. */
function objectRooted(schema: JsonSchemaNode | undefined): schema is JsonSchemaObject & { type: 'object' } {
  return typeof schema === 'object' && schema !== null && schema.type === 'object'
}

/** Whether results of this tool carry `structuredContent`. */
export function hasStructuredOutput(definition: AnyToolDefinition | undefined): boolean {
  return objectRooted(definition?.output?.schema)
}

/** `run_code`'s own description, then the prompt sections (the SDK block and the rules), in their order. */
function runCodeDescription(description: string, prompt: ToolPrompt): string {
  const sections = [...prompt.sections].sort((left, right) => left.order - right.order).map((section) => section.text)
  return [description, ...sections].join('\n\n')
}

/** What `tools/list` answers for one scope of the runtime. */
export function toMcpTools(prompt: ToolPrompt, definitionOf: (name: string) => AnyToolDefinition | undefined): Tool[] {
  return prompt.tools.map((schema) => {
    const definition = definitionOf(schema.name)
    const title = definition?.title ?? definition?.annotations?.title
    const outputSchema = definition?.output?.schema
    return {
      name: schema.name,
      ...(title === undefined ? {} : { title }),
      description:
        schema.name === RUN_CODE_TOOL_NAME ? runCodeDescription(schema.description, prompt) : schema.description,
      inputSchema: schema.parameters as Tool['inputSchema'],
      ...(objectRooted(outputSchema) ? { outputSchema: outputSchema as Tool['outputSchema'] } : {}),
      ...(definition?.annotations === undefined ? {} : { annotations: { ...definition.annotations } }),
    }
  })
}

/** Our parts are MCP's content kinds: each becomes its block with the same fields. */
function toBlock(part: ContentPart): CallToolResult['content'][number] {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text }
    case 'image':
    case 'audio':
      return { type: part.type, data: part.data, mimeType: part.mimeType }
    case 'resource':
      return { type: 'resource', resource: { ...part.resource } }
    case 'resource_link':
      return { ...part }
  }
}

/**
 * A settled call as a `tools/call` result: failures are `isError` results, never protocol errors. A structured
 * value is the result, so its content is that value serialized (the MCP spec's backwards-compatible text block),
 * not the tool's rendering of it; only the parts JSON cannot carry (images) and the contexts follow it.
 */
export function toCallToolResult(result: ToolResult, structured: boolean): CallToolResult {
  const contexts = (result.contexts ?? []).flatMap((context) => context.content)
  if (!result.ok) return { content: [...result.content, ...contexts].map(toBlock), isError: true }
  const value = result.value
  if (!structured || typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { content: [...result.content, ...contexts].map(toBlock) }
  }
  const images = result.content.filter((part) => part.type !== 'text')
  const content = [{ type: 'text' as const, text: JSON.stringify(value) }, ...[...images, ...contexts].map(toBlock)]
  return { content, structuredContent: value }
}
