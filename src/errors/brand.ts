/**
 * Marks every instance of `errorClass` with `Symbol.for('qilin-tools.<name>')` and returns the guard that
 * recognises it. The global symbol registry is shared by every realm and every copy of this package, so the
 * guard answers for an error built by another bundle or a `vm` context, where `instanceof` says no.
 */
export function brandError<Instance extends Error>(
  errorClass: abstract new (...args: never[]) => Instance,
  name: string,
): (value: unknown) => value is Instance {
  const brand = Symbol.for(`qilin-tools.${name}`)
  Object.defineProperty(errorClass.prototype, brand, { value: true })
  return (value: unknown): value is Instance =>
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
}
