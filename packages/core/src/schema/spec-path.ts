const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** Extends a readable spec path: `parent.name`, `parent["odd name"]`, `parent[2]`. */
export function childPath(parent: string, segment: string | number): string {
  if (typeof segment === 'number') return `${parent}[${segment}]`
  if (!identifier.test(segment)) return `${parent}[${JSON.stringify(segment)}]`
  return parent === '' ? segment : `${parent}.${segment}`
}
