import type { ContentPart } from 'qilin-tools/internal/definition/content.js'

/** Content as a terminal shows it: text as is, an image as a one-line placeholder. */
export function renderContent(content: readonly ContentPart[]): string {
  return content
    .map((part) =>
      part.type === 'text' ? part.text : `[image ${part.mimeType}, ${Buffer.byteLength(part.data, 'base64')} bytes]`,
    )
    .join('\n')
}
