import type { AudioPart, ImagePart, TextPart } from '../../definition/content.js'
import type { ToolResult } from '../../pipeline/call.js'
import { asTextOrMedia, contextParts } from '../results/result-parts.js'

/**
 * What an AI SDK `toModelOutput` returns (its `ToolResultOutput`), for the variants we use. Mastra runs on the
 * AI SDK's model interface and takes the same.
 */
export type AISDKModelOutput =
  | { type: 'text'; value: string }
  | { type: 'error-text'; value: string }
  | {
      type: 'content'
      value: (
        | { type: 'text'; text: string }
        | { type: 'file'; data: { type: 'data'; data: string }; mediaType: string }
      )[]
    }

/** A result as the AI SDK shows it to the model: text, `error-text` for a failure, or text and files in order. */
export function aiSdkModelOutput(result: ToolResult): AISDKModelOutput {
  const parts = asTextOrMedia([...result.content, ...contextParts([result])])
  if (!result.ok) return { type: 'error-text', value: textOf(parts) }
  if (parts.every((part) => part.type === 'text')) return { type: 'text', value: textOf(parts) }
  return {
    type: 'content',
    value: parts.map((part) =>
      part.type === 'text'
        ? { type: 'text', text: part.text }
        : { type: 'file', data: { type: 'data', data: part.data }, mediaType: part.mimeType },
    ),
  }
}

function textOf(parts: readonly (TextPart | ImagePart | AudioPart)[]): string {
  return parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n\n')
}
