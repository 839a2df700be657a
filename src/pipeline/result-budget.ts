import { byteLength, utf8Prefix } from '../definition/byte-length.js'
import type { ContentPart } from '../definition/content.js'

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

function textOf(part: ContentPart): string | undefined {
  return part?.type === 'text' && typeof part.text === 'string' ? part.text : undefined
}

/**
 * Fits the text of `content` into `maxBytes` of UTF-8, the note included: text parts are kept in order, the one that
 * overflows is cut on a code point boundary, later ones are dropped, and the note comes last. Images are neither cut
 * nor counted, the rule code mode follows when it attaches a sub-call's images whole beside its bounded output.
 * Answers `undefined` when the content fits as it is.
 */
export function cutToBudget(
  content: readonly ContentPart[],
  maxBytes: number,
  toolName: string,
): CutContent | undefined {
  // No UTF-16 unit takes more than 3 bytes, so most results are known to fit without being measured (a bench row
  // pays for this loop on every call). A text that is not a string makes the sum NaN, and the careful path decides.
  let units = 0
  for (let index = 0; index < content.length; index++) {
    const part = content[index]
    if (part?.type === 'text') units += part.text.length
  }
  if (units * 3 <= maxBytes) return undefined
  const sizes = content.map((part) => {
    const text = textOf(part)
    return text === undefined ? 0 : byteLength(text)
  })
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
    const text = textOf(part)
    if (text === undefined) {
      kept.push(part)
      continue
    }
    if (remaining === 0) continue
    const size = sizes[index]!
    if (size <= remaining) {
      kept.push(part)
      remaining -= size
      shownBytes += size
      continue
    }
    const prefix = utf8Prefix(text, remaining)
    if (prefix.bytes > 0) kept.push({ type: 'text', text: prefix.text })
    shownBytes += prefix.bytes
    remaining = 0
  }
  kept.push({ type: 'text', text: cutNote(toolName, shownBytes, totalBytes) })
  return { content: kept, shownBytes, totalBytes }
}
