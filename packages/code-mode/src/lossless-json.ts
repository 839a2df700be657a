/** Why a parsed JSON value cannot cross unchanged, or undefined when it can. */
export type JsonValueProblem = 'too-deep' | 'not-lossless' | undefined

/**
 * One iterative walk over a value from `JSON.parse`: `too-deep` when arrays and objects nest past `maxDepth` (the
 * root container is level 1; this wins over the other problem, so no later step recurses through it), else
 * `not-lossless` when it holds a number JSON cannot carry (`1e400` parses to Infinity) or anything but plain JSON.
 * The runner already refuses NaN, infinities and integers past 2^53; this guards the host against forged messages.
 */
export function jsonValueProblem(value: unknown, maxDepth: number): JsonValueProblem {
  if (typeof value !== 'object' || value === null) return isLosslessScalar(value) ? undefined : 'not-lossless'
  let lossless = true
  // Containers found and not yet visited, with their levels; scalars are checked where they are found.
  const containers: object[] = []
  const depths: number[] = []
  let current: object = value
  let depth = 1
  for (;;) {
    if (depth > maxDepth) return 'too-deep'
    for (const item of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof item === 'object' && item !== null) {
        containers.push(item)
        depths.push(depth + 1)
      } else if (lossless && !isLosslessScalar(item)) lossless = false
    }
    const next = containers.pop()
    if (next === undefined) return lossless ? undefined : 'not-lossless'
    current = next
    depth = depths.pop() as number
  }
}

function isLosslessScalar(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value)
  return value === null || typeof value === 'string' || typeof value === 'boolean'
}
