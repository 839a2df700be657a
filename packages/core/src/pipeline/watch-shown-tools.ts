import { InvalidArgumentError } from '../errors/invalid-argument-error.js'
import { createDisposer, type Disposer } from '../registry/disposer.js'
import type { RegistryEntry } from '../registry/registry-entry.js'
import type { ScopedRegistry } from '../registry/scoped-registry.js'
import type { PresentationMode } from '../registry/tool-schema.js'

/** What one scope shows the model: its presentation mode and its visible tools, sorted by name. */
export interface ShownTools {
  readonly mode: PresentationMode
  readonly entries: readonly RegistryEntry[]
}

/** Entries are compared by identity: the registry keeps one entry object per definition. */
function sameTools(left: ShownTools, right: ShownTools): boolean {
  if (left.mode !== right.mode || left.entries.length !== right.entries.length) return false
  return left.entries.every((entry, index) => entry === right.entries[index])
}

/**
 * Calls `listener` when what `shown` returns has changed, checked once per burst of registry changes (in a
 * microtask), so registering a thousand tools in a loop costs one comparison, and a change that leaves the scope
 * as it was (a tool another agent registered, one the scope's masks hide) calls nothing. The listener observes
 * only: what it throws is dropped, and the registration that caused it stands.
 */
export function watchShownTools(registry: ScopedRegistry, shown: () => ShownTools, listener: () => void): Disposer {
  if (typeof listener !== 'function') throw new InvalidArgumentError('onToolsChanged: listener must be a function')
  let last = shown()
  let scheduled = false
  let stopped = false
  const check = () => {
    scheduled = false
    if (stopped) return
    const next = shown()
    if (sameTools(last, next)) return
    last = next
    try {
      listener()
    } catch {
      // Observers cannot undo or fail the change they observe.
    }
  }
  const subscription = registry.onChange(() => {
    if (scheduled) return
    scheduled = true
    queueMicrotask(check)
  })
  return createDisposer(() => {
    stopped = true
    subscription.dispose()
  })
}
