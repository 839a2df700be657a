import { describe, expect, it } from 'vitest'
import {
  appendPiece,
  constantPiece,
  constantPointer,
  type PointerPiece,
  type PointerSource,
  pointerSource,
  ROOT_POINTER,
} from './pointer-expression.js'

function build(...pieces: PointerPiece[]): PointerSource {
  return pieces.reduce(appendPiece, ROOT_POINTER)
}

describe('pointer expressions for generated code', () => {
  it('joins adjacent constant text, also the slash of an index piece, and keeps expressions apart', () => {
    expect(pointerSource(ROOT_POINTER)).toBe('""')
    expect(pointerSource(build(constantPiece('a'), constantPiece('b')))).toBe('"/a/b"')
    expect(
      pointerSource(build(constantPiece('edits'), { text: '/', expression: 'i3' }, constantPiece('oldText'))),
    ).toBe('"/edits/" + i3 + "/oldText"')
    expect(pointerSource(build(constantPiece('x'), { text: '', expression: 'P(k2)' }))).toBe('"/x" + P(k2)')
    expect(pointerSource(build({ text: '', expression: 'P(k2)' }))).toBe('P(k2)')
  })

  it('evaluates to the pointer it stands for, whatever the keys hold', () => {
    const key = 'a"b\\c/d~e'
    const source = pointerSource(build(constantPiece(key), { text: '/', expression: 'i' }, constantPiece('~')))
    expect(new Function('i', `return ${source}`)(2)).toBe('/a"b\\c~1d~0e/2/~0')
  })

  it('is constant only while no expression took part', () => {
    expect(constantPointer(build(constantPiece('a'), constantPiece(0)))).toBe('/a/0')
    expect(constantPointer(ROOT_POINTER)).toBe('')
    expect(constantPointer(build(constantPiece('a'), { text: '/', expression: 'i' }))).toBeUndefined()
    expect(constantPointer(build({ text: '/', expression: 'i' }, constantPiece('a')))).toBeUndefined()
  })
})
