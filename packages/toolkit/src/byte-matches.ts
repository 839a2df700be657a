import { createTimeSlice } from './time-slice.js'

/**
 * Occurrences of `needle` in `haystack`, without overlaps, left to right (as `String#split` counts them). A file
 * can hold millions, so the count is taken in time slices.
 */
export async function countMatches(haystack: Buffer, needle: Buffer, signal: AbortSignal): Promise<number> {
  const slice = createTimeSlice(256)
  const sought = searchable(needle)
  let count = 0
  for (let at = haystack.indexOf(sought); at !== -1; at = haystack.indexOf(sought, at + needle.length)) {
    count++
    if (slice.due()) await slice.pause(signal)
  }
  return count
}

/**
 * `haystack` with its first `count` occurrences of `needle` replaced, built into one buffer of the exact result
 * size: the caller checks that size against its limit before calling.
 */
export async function replaceMatches(
  haystack: Buffer,
  needle: Buffer,
  replacement: Buffer,
  count: number,
  signal: AbortSignal,
): Promise<Buffer> {
  const slice = createTimeSlice(256)
  const sought = searchable(needle)
  const result = Buffer.allocUnsafe(haystack.length + count * (replacement.length - needle.length))
  let read = 0
  let written = 0
  for (let replaced = 0; replaced < count; replaced++) {
    const at = haystack.indexOf(sought, read)
    written = copyInto(result, written, haystack, read, at)
    written = copyInto(result, written, replacement, 0, replacement.length)
    read = at + needle.length
    if (slice.due()) await slice.pause(signal)
  }
  copyInto(result, written, haystack, read, haystack.length)
  return result
}

// Dense matches (millions of one-byte line breaks) make each native call's fixed cost the whole cost: a one-byte
// needle is sought as a number and short runs are copied in JavaScript; `bench/hostile-files.bench.ts` shows the gain.
function searchable(needle: Buffer): Buffer | number {
  return needle.length === 1 ? needle[0]! : needle
}

function copyInto(target: Buffer, at: number, source: Buffer, start: number, end: number): number {
  if (end - start > 32) return at + source.copy(target, at, start, end)
  let written = at
  for (let index = start; index < end; index++) target[written++] = source[index]!
  return written
}
