import { escapePointerToken } from './json-pointer.js'

/**
 * JSON pointers as generated source. A pointer is kept as the expression for everything up to its constant tail
 * plus that tail's raw text, so appending a property name is a string append, not a re-parse of source.
 */
export interface PointerSource {
  /** Source of the part before `tail`, or '' when the whole pointer is the constant `tail`. */
  readonly head: string
  /** Raw (unquoted, already escaped for JSON pointer) text at the end. */
  readonly tail: string
}

/** What a member adds to its parent's pointer: constant `text`, then optionally an expression (`i3`, `P(k7)`). */
export interface PointerPiece {
  readonly text: string
  readonly expression?: string
}

export const ROOT_POINTER: PointerSource = { head: '', tail: '' }

/** The piece of a known key or index: `/a~1b`. */
export function constantPiece(segment: string | number): PointerPiece {
  return { text: `/${escapePointerToken(segment)}` }
}

export function appendPiece(pointer: PointerSource, piece: PointerPiece): PointerSource {
  const tail = pointer.tail + piece.text
  if (piece.expression === undefined) return { head: pointer.head, tail }
  if (pointer.head === '' && tail === '') return { head: piece.expression, tail: '' }
  return { head: `${pointerSource({ head: pointer.head, tail })} + ${piece.expression}`, tail: '' }
}

/** The pointer as one JavaScript expression (`""` for the root). */
export function pointerSource(pointer: PointerSource): string {
  if (pointer.head === '') return JSON.stringify(pointer.tail)
  return pointer.tail === '' ? pointer.head : `${pointer.head} + ${JSON.stringify(pointer.tail)}`
}

/** The pointer's text when it does not depend on the value, else undefined. */
export function constantPointer(pointer: PointerSource): string | undefined {
  return pointer.head === '' ? pointer.tail : undefined
}
