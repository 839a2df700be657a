import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js'
import type { ContentPart } from 'qilin-tools/internal/definition/content.js'
import { ToolErrorCode } from 'qilin-tools/internal/errors/error-codes.js'
import { ToolError } from 'qilin-tools/internal/errors/tool-error.js'
import type { JsonValue } from 'qilin-tools/internal/json-schema/json-value.js'

/** One MCP call result in our terms: what the model reads and the canonical value. */
export interface MappedResult {
  readonly content: readonly ContentPart[]
  readonly value: JsonValue
}

type BlockOf<Type extends ContentBlock['type']> = Extract<ContentBlock, { type: Type }>

/** Each MCP content kind as our parts: text and images pass through, the rest become short text. */
const partsOf = {
  text: (block: BlockOf<'text'>) => [{ type: 'text', text: block.text }],
  image: (block: BlockOf<'image'>) => [{ type: 'image', data: block.data, mimeType: block.mimeType }],
  audio: (block: BlockOf<'audio'>) => [
    { type: 'text', text: `[audio ${block.mimeType}, ${block.data.length} base64 bytes]` },
  ],
  resource_link: (block: BlockOf<'resource_link'>) => [
    { type: 'text', text: `[resource ${block.name}: ${block.uri}]${block.description ? ` ${block.description}` : ''}` },
  ],
  resource: (block: BlockOf<'resource'>) => [
    'text' in block.resource
      ? { type: 'text', text: block.resource.text }
      : { type: 'text', text: `[resource ${block.resource.uri} ${block.resource.mimeType ?? 'binary'}]` },
  ],
} satisfies { [Type in ContentBlock['type']]: (block: BlockOf<Type>) => ContentPart[] }

export function mapContent(blocks: readonly ContentBlock[]): ContentPart[] {
  return blocks.flatMap((block) => (partsOf[block.type] as (block: ContentBlock) => ContentPart[])(block))
}

function textOf(parts: readonly ContentPart[]): string {
  return parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
}

/** Our failures render as `Error: <message>`; a server that words its errors the same way would be said twice. */
function withoutErrorPrefix(text: string): string {
  return text.startsWith('Error: ') ? text.slice('Error: '.length) : text
}

/**
 * Maps a `tools/call` result. `isError` throws a `TOOL_ERROR` carrying the server's text; with an output
 * schema the structured content is the value, otherwise the value is the text of the result.
 */
export function mapCallResult(serverName: string, result: CallToolResult, hasOutputSchema: boolean): MappedResult {
  const content = mapContent(result.content ?? [])
  if (result.isError === true) {
    const text = withoutErrorPrefix(textOf(content))
    throw new ToolError({
      code: ToolErrorCode.TOOL_ERROR,
      message: text.length > 0 ? text : `MCP server "${serverName}" reported an error without a message`,
    })
  }
  if (hasOutputSchema) {
    if (result.structuredContent === undefined) {
      throw new ToolError({
        code: ToolErrorCode.TOOL_ERROR,
        message: `MCP server "${serverName}" returned no structured content for a tool with an output schema`,
      })
    }
    return { content, value: result.structuredContent as JsonValue }
  }
  return { content, value: textOf(content) }
}
