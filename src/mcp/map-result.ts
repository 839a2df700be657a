import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js'
import { type ContentPart, contentFallbackText, isMediaPart } from '../definition/content.js'
import { ToolErrorCode } from '../errors/error-codes.js'
import { ToolError } from '../errors/tool-error.js'
import type { JsonValue } from '../json-schema/json-value.js'

/** One MCP call result in our terms: what the model reads and the canonical value. */
export interface MappedResult {
  readonly content: readonly ContentPart[]
  readonly value: JsonValue
}

type BlockOf<Type extends ContentBlock['type']> = Extract<ContentBlock, { type: Type }>

const optional = <Key extends string>(key: Key, value: string | undefined) =>
  (value === undefined ? {} : { [key]: value }) as { readonly [K in Key]?: string }

/** Each MCP content kind as our part of the same kind, with the fields we define (no `_meta`, no annotations). */
const partsOf = {
  text: (block: BlockOf<'text'>) => [{ type: 'text', text: block.text }],
  image: (block: BlockOf<'image'>) => [{ type: 'image', data: block.data, mimeType: block.mimeType }],
  audio: (block: BlockOf<'audio'>) => [{ type: 'audio', data: block.data, mimeType: block.mimeType }],
  resource_link: (block: BlockOf<'resource_link'>) => [
    {
      type: 'resource_link',
      uri: block.uri,
      name: block.name,
      ...optional('title', block.title),
      ...optional('description', block.description),
      ...optional('mimeType', block.mimeType),
    },
  ],
  resource: ({ resource }: BlockOf<'resource'>) => [
    {
      type: 'resource',
      resource:
        'text' in resource
          ? { uri: resource.uri, ...optional('mimeType', resource.mimeType), text: resource.text }
          : { uri: resource.uri, ...optional('mimeType', resource.mimeType), blob: resource.blob },
    },
  ],
} satisfies { [Type in ContentBlock['type']]: (block: BlockOf<Type>) => ContentPart[] }

export function mapContent(blocks: readonly ContentBlock[]): ContentPart[] {
  return blocks.flatMap((block) => (partsOf[block.type] as (block: ContentBlock) => ContentPart[])(block))
}

/** The text of a result: every part text can hold (text, text resources, links); media are left to the parts. */
function textOf(parts: readonly ContentPart[]): string {
  return parts.flatMap((part) => (isMediaPart(part) ? [] : [contentFallbackText(part)])).join('\n')
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
