/** Longest name compared; tool names are at most 64 characters, so a longer unknown name is cut to this first. */
const MAX_COMPARED_LENGTH = 80

/**
 * Up to `limit` of `candidates` within edit distance `maxDistance` of `name`, nearest first, ties by name.
 * Work is bounded whatever the input: the name is cut to 80 characters, a candidate whose length differs by more
 * than `maxDistance` is skipped unread, and each comparison stops once a whole row exceeds `maxDistance`.
 */
export function nearestNames(
  name: string,
  candidates: Iterable<string>,
  maxDistance: number,
  limit: number,
): readonly string[] {
  const target = name.slice(0, MAX_COMPARED_LENGTH)
  const found: { readonly name: string; readonly distance: number }[] = []
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - target.length) > maxDistance) continue
    const distance = boundedDistance(target, candidate, maxDistance)
    if (distance <= maxDistance) found.push({ name: candidate, distance })
  }
  found.sort((left, right) =>
    left.distance !== right.distance
      ? left.distance - right.distance
      : left.name < right.name
        ? -1
        : left.name > right.name
          ? 1
          : 0,
  )
  return found.slice(0, limit).map((entry) => entry.name)
}

/** Levenshtein distance of `left` and `right`, or `bound + 1` as soon as it must exceed `bound`. */
export function boundedDistance(left: string, right: string, bound: number): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index)
  let current = new Array<number>(right.length + 1)
  for (let row = 1; row <= left.length; row++) {
    current[0] = row
    let rowMinimum = row
    for (let column = 1; column <= right.length; column++) {
      const substitution = previous[column - 1]! + (left[row - 1] === right[column - 1] ? 0 : 1)
      const value = Math.min(substitution, previous[column]! + 1, current[column - 1]! + 1)
      current[column] = value
      if (value < rowMinimum) rowMinimum = value
    }
    if (rowMinimum > bound) return bound + 1
    ;[previous, current] = [current, previous]
  }
  return Math.min(previous[right.length]!, bound + 1)
}
