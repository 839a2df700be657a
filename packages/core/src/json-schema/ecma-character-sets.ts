/** Code point ranges ECMAScript gives its class escapes, shared by both pattern matchers. */
export type CodePointRanges = readonly (readonly [number, number])[]

export const MAX_CODE_POINT = 0x10ffff

/** WhiteSpace and LineTerminator: what `\s` matches. */
export const WHITE_SPACE: CodePointRanges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]

/** What `.` does not match without the `s` flag. */
export const LINE_TERMINATORS: CodePointRanges = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]

/** Sorted, merged ranges. */
export function normalize(ranges: CodePointRanges): [number, number][] {
  const sorted = [...ranges].sort((left, right) => left[0] - right[0])
  const merged: [number, number][] = []
  for (const [low, high] of sorted) {
    const last = merged[merged.length - 1]
    if (last !== undefined && low <= last[1] + 1) last[1] = Math.max(last[1], high)
    else merged.push([low, high])
  }
  return merged
}

/** Every code point not in `ranges`. */
export function complement(ranges: CodePointRanges): [number, number][] {
  const result: [number, number][] = []
  let next = 0
  for (const [low, high] of normalize(ranges)) {
    if (low > next) result.push([next, low - 1])
    next = high + 1
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT])
  return result
}
