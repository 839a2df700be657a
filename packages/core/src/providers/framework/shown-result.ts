import type { ImagePart, TextPart } from '../../definition/content.js'
import type { ToolResult } from '../../pipeline/call.js'
import { asTextOrImage, contextParts, joinText } from '../results/result-parts.js'

/** What a framework shows the model of a result: its content, then its contexts, as text and images. */
export function shownParts(result: ToolResult): (TextPart | ImagePart)[] {
  const contexts = contextParts([result])
  return asTextOrImage(contexts.length === 0 ? result.content : [...result.content, ...contexts])
}

/** The text parts of a result joined, for a framework that shows a string; for a failure, `Error: <message>`. */
export function shownText(parts: readonly (TextPart | ImagePart)[]): string {
  if (parts.length === 1 && parts[0]!.type === 'text') return parts[0]!.text
  return joinText(parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])))
}

/** True when every part is text, so a string carries the whole result. */
export function isAllText(parts: readonly (TextPart | ImagePart)[]): parts is TextPart[] {
  return parts.every((part) => part.type === 'text')
}
