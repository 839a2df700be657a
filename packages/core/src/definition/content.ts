/** What the model reads from a result: text and images. */
export type ContentPart = TextPart | ImagePart

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
