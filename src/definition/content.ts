/** What the model reads from a result: text and images. */
export type ContentPart = TextPart | ImagePart

export interface TextPart {
  readonly type: 'text'
  readonly text: string
}

export interface ImagePart {
  readonly type: 'image'
  /** Base64 without a data: prefix. */
  readonly data: string
  readonly mimeType: string
}
