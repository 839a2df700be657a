/**
 * JSON equality: numbers by value (so `1` equals `1.0`), arrays by position, objects by own keys regardless of
 * order. Below `depthBudget` levels values are compared by identity only, so hostile nesting cannot overflow.
 */
export function deepEqual(left: unknown, right: unknown, depthBudget = 64): boolean {
  if (left === right) return true
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false
  if (depthBudget <= 0) return false
  const leftIsArray = Array.isArray(left)
  if (leftIsArray !== Array.isArray(right)) return false
  if (leftIsArray) {
    const leftItems = left as unknown[]
    const rightItems = right as unknown[]
    if (leftItems.length !== rightItems.length) return false
    for (let index = 0; index < leftItems.length; index++) {
      if (!deepEqual(leftItems[index], rightItems[index], depthBudget - 1)) return false
    }
    return true
  }
  const leftKeys = Object.keys(left)
  if (leftKeys.length !== Object.keys(right).length) return false
  for (const key of leftKeys) {
    if (!Object.hasOwn(right, key)) return false
    if (!deepEqual((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key], depthBudget - 1)) {
      return false
    }
  }
  return true
}
