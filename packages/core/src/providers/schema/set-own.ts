/**
 * Sets `key` as an own, enumerable property. Plain assignment would treat a property or tool named
 * `__proto__` as the prototype and lose it.
 */
export function setOwn<Value>(target: Record<string, Value>, key: string, value: Value): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}
