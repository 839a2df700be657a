/** What every registration returns: undo it once, by hand or with `using`. */
export interface Disposer {
  dispose(): void
  [Symbol.dispose](): void
}

/** Wraps an undo step so that calling it twice is harmless. */
export function createDisposer(undo: () => void): Disposer {
  let done = false
  const dispose = () => {
    if (done) return
    done = true
    undo()
  }
  return { dispose, [Symbol.dispose]: dispose }
}
