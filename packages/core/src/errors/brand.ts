/**
 * Marks every instance of `errorClass` with `Symbol.for('qilin-tools.<name>')` on its prototype and returns the
 * guard that recognises it. The global symbol registry is shared by every realm and every copy of this package,
 * so the guard answers for an error built by another bundle or a `vm` context, where `instanceof` says no.
 * The brand must be inherited: a plain object carrying it as its own key (a spread copy, a forgery) has none of
 * the class's methods, so it is refused. The guard never throws, whatever a proxy's traps do.
 */
export function brandError<Instance extends Error>(
  errorClass: abstract new (...args: never[]) => Instance,
  name: string,
): (value: unknown) => value is Instance {
  const brand = Symbol.for(`qilin-tools.${name}`)
  Object.defineProperty(errorClass.prototype, brand, { value: true })
  return (value: unknown): value is Instance => {
    if (typeof value !== 'object' || value === null) return false
    try {
      return !Object.hasOwn(value, brand) && (value as Record<symbol, unknown>)[brand] === true
    } catch {
      return false
    }
  }
}
