import { type ContentPart, contentFallbackText } from '../definition/content.js'

/** Content as a terminal shows it: text as is, anything binary as a one-line placeholder. */
export function renderContent(content: readonly ContentPart[]): string {
  return content.map(contentFallbackText).join('\n')
}
