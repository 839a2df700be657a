import { createDisposer, type Disposer } from '../registry/disposer.js'
import type { RegistryLayer } from '../registry/scoped-registry.js'

/** The tools a scope's searches found, in the order first found; the list only grows while the layer lives. */
export class FoundTools {
  readonly #names: string[] = []
  readonly #known = new Set<string>()
  readonly #listeners = new Set<() => void>()

  get version(): number {
    return this.#names.length
  }

  get names(): readonly string[] {
    return this.#names
  }

  has(name: string): boolean {
    return this.#known.has(name)
  }

  /** Calls `listener` after each `add` that found something new. */
  onAdd(listener: () => void): Disposer {
    this.#listeners.add(listener)
    return createDisposer(() => {
      this.#listeners.delete(listener)
    })
  }

  /** Adds the names not found before, keeping their order. */
  add(names: readonly string[]): void {
    const before = this.#names.length
    for (const name of names) {
      if (this.#known.has(name)) continue
      this.#known.add(name)
      this.#names.push(name)
    }
    if (this.#names.length === before) return
    for (const listener of this.#listeners) {
      try {
        listener()
      } catch {
        // Observers cannot fail the search that found the tools.
      }
    }
  }
}

const byLayer = new WeakMap<RegistryLayer, FoundTools>()

/** The layer's found tools; they go when the layer does (a closed agent starts over). */
export function foundTools(layer: RegistryLayer): FoundTools {
  let found = byLayer.get(layer)
  if (found === undefined) {
    found = new FoundTools()
    byLayer.set(layer, found)
  }
  return found
}
