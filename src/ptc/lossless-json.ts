/**
 * True when `value` is plain JSON with finite numbers only. The runner already refuses NaN, infinities and
 * integers past 2^53; this guards the host against forged messages (`1e400` parses to Infinity).
 */
export function isLosslessJson(value: unknown, depth = 0): boolean {
  if (depth > 1000) return false
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every((item) => isLosslessJson(item, depth + 1))
  if (typeof value === 'object') return Object.values(value).every((item) => isLosslessJson(item, depth + 1))
  return false
}
