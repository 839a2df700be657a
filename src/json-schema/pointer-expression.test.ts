import { describe, expect, it } from 'vitest'
import { isStringLiteral, joinPointerPieces } from './pointer-expression.js'

describe('pointer expressions for generated code', () => {
  it('joins adjacent literals, also the slash of an index piece, and keeps expressions apart', () => {
    expect(joinPointerPieces([])).toBe('""')
    expect(joinPointerPieces(['"/a"', '"/b"'])).toBe('"/a/b"')
    expect(joinPointerPieces(['"/edits"', '"/" + i3', '"/oldText"'])).toBe('"/edits/" + i3 + "/oldText"')
    expect(joinPointerPieces(['"/x"', 'P(k2)'])).toBe('"/x" + P(k2)')
  })

  it('evaluates to the pointer it stands for, whatever the keys hold', () => {
    const key = 'a"b\\c'
    const source = joinPointerPieces([JSON.stringify(`/${key}`), '"/" + i', JSON.stringify('/~0')])
    expect(new Function('i', `return ${source}`)(2)).toBe(`/${key}/2/~0`)
  })

  it('treats only plain literals as constant', () => {
    expect(isStringLiteral('"/a"')).toBe(true)
    expect(isStringLiteral('"/" + i')).toBe(false)
    expect(isStringLiteral('"/a" + "b"')).toBe(false)
    expect(isStringLiteral(JSON.stringify('/a"b'))).toBe(false)
  })
})
