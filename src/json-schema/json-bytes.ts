/**
 * About how many bytes `value` takes as JSON text (escapes and non-ASCII counted as one character), counting no
 * further than just past `limit`: a 15 MB schema is found too large after reading about `limit` of it.
 */
export function jsonBytesUpTo(value: unknown, limit: number): number {
  let total = 0
  const visit = (node: unknown): void => {
    if (total > limit) return
    if (typeof node === 'string') total += node.length + 2
    else if (Array.isArray(node)) {
      total += 1 + Math.max(1, node.length)
      for (const item of node) {
        if (total > limit) return
        visit(item)
      }
    } else if (typeof node === 'object' && node !== null) {
      total += 2
      let separator = 0
      for (const key in node) {
        if (total > limit) return
        total += separator + key.length + 3
        separator = 1
        visit((node as Record<string, unknown>)[key])
      }
    } else total += String(node).length
  }
  visit(value)
  return total
}
