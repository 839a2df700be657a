/**
 * What the model reads from a result: text, images, audio, embedded resources and links to resources (the MCP
 * content kinds). A provider whose API cannot carry a kind in that position reads `contentFallbackText` instead.
 */
export type ContentPart = TextPart | ImagePart | AudioPart | ResourcePart | ResourceLinkPart

/** Text a tool result shows the model. */
export interface TextPart {
  readonly type: 'text'
  readonly text: string
}

/** An image a tool result shows the model, as base64 data with its MIME type. */
export interface ImagePart {
  readonly type: 'image'
  /** Base64 without a data: prefix. */
  readonly data: string
  readonly mimeType: string
}

/** Audio a tool result carries, as base64 data with its MIME type. */
export interface AudioPart {
  readonly type: 'audio'
  /** Base64 without a data: prefix. */
  readonly data: string
  readonly mimeType: string
}

/** The contents of a resource, embedded in the result: text, or base64 `blob` for binary contents. */
export type EmbeddedResource =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri: string; readonly mimeType?: string; readonly blob: string }

/** A resource embedded in a result (MCP `resource` content). */
export interface ResourcePart {
  readonly type: 'resource'
  readonly resource: EmbeddedResource
}

/** A link to a resource the client may read (MCP `resource_link` content); the contents are not included. */
export interface ResourceLinkPart {
  readonly type: 'resource_link'
  readonly uri: string
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly mimeType?: string
}

/** Parts no JSON value or printed text can carry: a program's host attaches them instead of printing them. */
export type MediaPart = ImagePart | AudioPart | (ResourcePart & { readonly resource: { readonly blob: string } })

/** Whether a part is binary media (image, audio or a binary resource) rather than something text can hold. */
export function isMediaPart(part: ContentPart): part is MediaPart {
  return part.type === 'image' || part.type === 'audio' || (part.type === 'resource' && 'blob' in part.resource)
}

/** Decoded bytes of base64 text, counted without decoding. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding)
}

/**
 * The text a model reads in place of a part its provider cannot carry in that position: the text of a text part or
 * an embedded text resource, and a one-line description of anything else.
 */
export function contentFallbackText(part: ContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text
    case 'image':
      return `[image ${part.mimeType}, ${base64Bytes(part.data)} bytes]`
    case 'audio':
      return `[audio ${part.mimeType}, ${base64Bytes(part.data)} bytes]`
    case 'resource': {
      const { resource } = part
      const type = resource.mimeType === undefined ? '' : ` (${resource.mimeType})`
      if ('text' in resource) return `[resource ${resource.uri}${type}]\n${resource.text}`
      return `[resource ${resource.uri}${type}, ${base64Bytes(resource.blob)} bytes]`
    }
    case 'resource_link': {
      const label = part.title ?? part.name
      const type = part.mimeType === undefined ? '' : ` (${part.mimeType})`
      const about = part.description === undefined ? '' : `: ${part.description}`
      return `[resource link ${label} ${part.uri}${type}${about}]`
    }
  }
}
