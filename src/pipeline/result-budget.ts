import { byteLength, utf8Prefix } from '../definition/byte-length.js'
import { type ContentPart, contentFallbackText, isMediaPart } from '../definition/content.js'

/** What a native result may put into the conversation unless the runtime or the definition says otherwise. */
export const DEFAULT_MAX_RESULT_BYTES = 100_000

/** Content cut to its budget: what the model is shown, and the measures the note gave. */
export interface CutContent {
  readonly content: readonly ContentPart[]
  /** UTF-8 bytes of text kept from the tool's own parts (the note not counted). */
  readonly shownBytes: number
  /** UTF-8 bytes of text the tool's parts held. */
  readonly totalBytes: number
}

/** The note the model reads after a cut result. Model-facing: snapshot-tested. */
export function cutNote(toolName: string, shownBytes: number, totalBytes: number): string {
  return (
    `[Result cut: you see the first ${shownBytes} of ${totalBytes} bytes; ${totalBytes - shownBytes} bytes were ` +
    `left out. To read the rest, call ${toolName} again for a smaller part, for example with an offset or a ` +
    'narrower query.]'
  )
}

/**
 * The bytes a part takes from the budget, by code mode's rule (`runMetadata`): media (images, audio, binary
 * resources) are attached whole and count nothing; every other part counts the text a model reads for it.
 */
function partBytes(part: ContentPart): number {
  // What is not a part at all is no text either: it passes as it came, for whatever reads it next to judge.
  if (typeof part !== 'object' || part === null || isMediaPart(part)) return 0
  const text: unknown = contentFallbackText(part)
  return typeof text === 'string' ? byteLength(text) : 0
}

/** As much of `part` as fits in `room` bytes: a text or text resource cut short, or nothing of a link. */
function partWithin(part: ContentPart, size: number, room: number): { part: ContentPart; bytes: number } | undefined {
  if (part.type === 'text') {
    const prefix = utf8Prefix(part.text, room)
    return prefix.bytes === 0 ? undefined : { part: { type: 'text', text: prefix.text }, bytes: prefix.bytes }
  }
  if (part.type !== 'resource' || !('text' in part.resource)) return undefined
  const { resource } = part
  const heading = size - byteLength(resource.text)
  const prefix = utf8Prefix(resource.text, room - heading)
  if (prefix.bytes === 0) return undefined
  return { part: { type: 'resource', resource: { ...resource, text: prefix.text } }, bytes: heading + prefix.bytes }
}

/**
 * Fits the text of `content` into `maxBytes` of UTF-8, the note included: parts are kept in order, the one that
 * overflows is cut on a code point boundary (a resource link is kept whole or not at all), later ones are dropped,
 * and the note comes last. Media are neither cut nor counted, as in code mode. Answers `undefined` when the content
 * fits as it is.
 */
export function cutToBudget(
  content: readonly ContentPart[],
  maxBytes: number,
  toolName: string,
): CutContent | undefined {
  // No UTF-16 unit takes more than 3 bytes, so most results (one short text part) are known to fit without being
  // measured: a bench row pays for this loop on every call. Any other kind of part takes the careful path.
  let units = 0
  for (let index = 0; index < content.length; index++) {
    const part = content[index]
    units += part?.type === 'text' ? part.text.length : Number.POSITIVE_INFINITY
  }
  if (units * 3 <= maxBytes) return undefined
  const sizes = content.map(partBytes)
  let totalBytes = 0
  for (const size of sizes) totalBytes += size
  if (totalBytes <= maxBytes) return undefined
  // The longest the note can be: nothing shown (so the most left out), with the budget's digits for what is shown.
  const noteBytes = byteLength(cutNote(toolName, 0, totalBytes)) - 1 + String(maxBytes).length
  let remaining = Math.max(0, maxBytes - noteBytes)
  const kept: ContentPart[] = []
  let shownBytes = 0
  for (let index = 0; index < content.length; index++) {
    const part = content[index]!
    const size = sizes[index]!
    if (size <= remaining) {
      kept.push(part)
      remaining -= size
      shownBytes += size
      continue
    }
    const within = remaining === 0 ? undefined : partWithin(part, size, remaining)
    if (within !== undefined) {
      kept.push(within.part)
      shownBytes += within.bytes
    }
    remaining = 0
  }
  kept.push({ type: 'text', text: cutNote(toolName, shownBytes, totalBytes) })
  return { content: kept, shownBytes, totalBytes }
}
