/**
 * The part of the sandbox prelude that removes or narrows every built-in whose memory lives outside the
 * V8 heap where isolated-vm's `memoryLimit` does not count it (its `externally_allocated_size` stays 0),
 * or that blocks past the deadline. Array buffers stay: isolated-vm's allocator counts their backing
 * stores, so a flood ends in a RangeError inside the program.
 *
 * - `Intl`: every `Intl.*` object holds an ICU object the heap limit never sees. Kept alive, 32 MB of heap
 *   held gigabytes (issue 14). Nothing else hands one out, so removing the namespace removes them all.
 * - `toLocaleString` and friends, `localeCompare`: with a locale or options they build a fresh ICU object
 *   per call, which only a garbage collection frees, and the collector is not told of its size. Without
 *   either, V8 reuses one cached ICU object per isolate; that form stays.
 * - `toLocaleUpperCase`/`toLocaleLowerCase` and `normalize` keep their arguments: they keep no ICU object.
 *
 * A JavaScript snippet spliced into the prelude's function body; it needs `global` and nothing else.
 */
export const heapBoundPrelude = `
  if (typeof SharedArrayBuffer === 'function') delete SharedArrayBuffer.prototype.grow
  delete global.WebAssembly
  delete global.SharedArrayBuffer
  delete global.Atomics
  delete global.Intl
  delete ArrayBuffer.prototype.resize
  delete ArrayBuffer.prototype.transfer
  delete ArrayBuffer.prototype.transferToFixedLength
  {
    const TypeErrorCtor = TypeError
    const defineProperty = Object.defineProperty
    const arrayBufferCtor = ArrayBuffer
    const FixedArrayBuffer = function ArrayBuffer(length) {
      if (new.target === undefined) throw new TypeErrorCtor("Constructor ArrayBuffer requires 'new'")
      return new arrayBufferCtor(length)
    }
    FixedArrayBuffer.prototype = arrayBufferCtor.prototype
    FixedArrayBuffer.isView = arrayBufferCtor.isView
    defineProperty(arrayBufferCtor.prototype, 'constructor', { value: FixedArrayBuffer, writable: true, configurable: true })
    global.ArrayBuffer = FixedArrayBuffer

    const call = Function.prototype.call.bind(Function.prototype.call)
    // [prototype, method, how many leading arguments are not locales or options]
    const localeMethods = [
      [Number.prototype, 'toLocaleString', 0],
      [BigInt.prototype, 'toLocaleString', 0],
      [Date.prototype, 'toLocaleString', 0],
      [Date.prototype, 'toLocaleDateString', 0],
      [Date.prototype, 'toLocaleTimeString', 0],
      [String.prototype, 'localeCompare', 1],
    ]
    for (const [prototype, name, leading] of localeMethods) {
      const original = prototype[name]
      const refusal = name + ' takes no locale or options in code mode (Intl is not available): ' +
        'call it without them for the default locale'
      const narrowed = {
        // Named parameters, not a rest array: a program may have replaced what arrays inherit.
        [name](first, second, third) {
          const locales = leading === 0 ? first : second
          const options = leading === 0 ? second : third
          if (locales !== undefined || options !== undefined) throw new TypeErrorCtor(refusal)
          return leading === 0 ? call(original, this) : call(original, this, first)
        },
      }[name]
      defineProperty(narrowed, 'length', { value: original.length })
      defineProperty(prototype, name, { value: narrowed, writable: true, enumerable: false, configurable: true })
    }
  }
`
